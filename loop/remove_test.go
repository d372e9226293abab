package loop_test

import (
	"os"
	"testing"

	"loopkit/loop"
)

// Removing a reader from an fd that has only a writer (or the other way
// round) says false and leaves the other callback in place.
func TestRemovingTheCallbackAnFDDoesNotHaveSaysFalse(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		defer w.Close()
		rfd, wfd := int(r.Fd()), int(w.Fd())
		if err := l.AddReader(rfd, func() {}); err != nil {
			t.Fatal(err)
		}
		if err := l.AddWriter(wfd, func() {}); err != nil {
			t.Fatal(err)
		}
		got := []bool{l.RemoveWriter(rfd), l.RemoveReader(wfd), // not there
			l.RemoveReader(rfd), l.RemoveWriter(wfd), // there
			l.RemoveReader(rfd), l.RemoveWriter(wfd)} // gone
		want := []bool{false, false, true, true, false, false}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("removals said %v, want %v", got, want)
			}
		}
	})
}
