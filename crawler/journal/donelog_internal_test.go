package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The done log as a start reads it: an O entry appended again (by a fold
// cut short, then run again) replaces the one before it, and a start's X
// entry voids the O entries past the cut, keeping the one that ends
// exactly there. -o is cut at 20 in each case below.
func TestReadDoneLogReplacesRepeatsAndVoidsPastTheCut(t *testing.T) {
	o := func(from, to int64) []byte { return appendMark(nil, from, to, 0, nil) }
	x := func(at int64) []byte { return appendNumbers(nil, kindStart, at, 0) }
	for _, c := range []struct {
		name    string
		entries [][]byte
	}{
		{"a repeat", [][]byte{o(0, 10), o(10, 20), o(10, 20)}},
		{"a cut at an entry's end", [][]byte{o(0, 10), o(10, 20), o(20, 30), x(20)}},
	} {
		j := &Journal{dir: t.TempDir()}
		var b []byte
		for _, e := range c.entries {
			b = append(b, e...)
		}
		if err := os.WriteFile(filepath.Join(j.dir, "done"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		marks, err := j.readDoneLog()
		var got []string
		for _, m := range marks {
			got = append(got, fmt.Sprint(m.n))
		}
		if err != nil || fmt.Sprint(got) != "[[0 10] [10 20]]" {
			t.Errorf("%s: read %v, %v; want [[0 10] [10 20]]", c.name, got, err)
		}
	}
}
