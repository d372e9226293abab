package future_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"loopkit/future"
)

// Once every callback has run, the future starts its list afresh: three
// callbacks added to it then (one more than its fields hold) run, in
// order, as the first three did.
func TestCallbacksAddedAfterAllRanRunAsTheFirstDid(t *testing.T) {
	q := &queue{}
	f := future.New[int](q)
	f.SetResult(1)
	var got []int
	for round := range 2 {
		for i := range 3 {
			f.OnDone(func() { got = append(got, 10*round+i) })
		}
		q.run()
	}
	if fmt.Sprint(got) != "[0 1 2 10 11 12]" {
		t.Fatalf("callbacks ran as %v, want [0 1 2 10 11 12]", got)
	}
}

// A callback that has run is forgotten: what its closure holds can be
// collected while the future itself lives on (a future kept in a
// long-lived record must not pin the last request's buffers).
func TestACallbackThatRanIsNotKeptAlive(t *testing.T) {
	q := &queue{}
	f := future.New[int](q)
	collected := make(chan struct{})
	func() {
		held := &struct{ buf [64]byte }{}
		runtime.SetFinalizer(held, func(*struct{ buf [64]byte }) { close(collected) })
		f.OnDone(func() { held.buf[0]++ })
	}()
	f.SetResult(1)
	q.run()
	for range 40 {
		runtime.GC()
		select {
		case <-collected:
			runtime.KeepAlive(f)
			return
		case <-time.After(5 * time.Millisecond): // the finalizer runs on the runtime's goroutine
		}
	}
	runtime.KeepAlive(f)
	t.Fatal("the closure of a callback that ran is still reachable from its future")
}

// The panic of a second completion names the outcome the future already
// had, so the programmer sees which party came first.
func TestCompletingTwiceSaysWhatTheFutureAlreadyWas(t *testing.T) {
	for want, first := range map[string]func(*future.Future[int]){
		"already finished":  func(f *future.Future[int]) { f.SetError(errors.New("first")) },
		"already cancelled": func(f *future.Future[int]) { f.Cancel() },
	} {
		t.Run(want, func(t *testing.T) {
			f := future.New[int](&queue{})
			first(f)
			defer func() {
				if p := recover(); !strings.Contains(fmt.Sprint(p), want) {
					t.Fatalf("second completion: recovered %v, want it to say %q", p, want)
				}
			}()
			f.SetResult(2)
		})
	}
}
