package main

import (
	"io"
	"path/filepath"
	"testing"
)

// With --timeline each loop's lane is put on the timeline's clock: its
// offset is its loop's, which is where that loop's zero falls after the
// instruments' epoch.
func TestTimelineLanesTakeTheirLoopsOffset(t *testing.T) {
	o := &options{timeline: filepath.Join(t.TempDir(), "t.svg"), loops: 2}
	_, finish, err := newLoops(o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer finish()
	if o.instruments == nil || len(o.instruments.loops) != 2 {
		t.Fatalf("instruments %+v", o.instruments)
	}
	for i, r := range o.instruments.loops {
		if r.lane == nil || r.offset <= 0 || r.lane.Offset != r.offset || r.lane.Name != "loop "+itoa(i) {
			t.Errorf("loop %d: offset %v, lane %+v", i, r.offset, r.lane)
		}
	}
}
