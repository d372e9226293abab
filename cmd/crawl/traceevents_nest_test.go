package main

import (
	"path/filepath"
	"testing"
	"time"

	"loopkit/loop"
)

// Clocks read at different moments need not nest when rounded: a turn
// whose callback ends after it (a clock read late), a callback that
// starts inside the wait, two that overlap, and turns that overlap each
// other are clamped into place, a child inside its parent and after its
// sibling, and each turn after the one before. What nests is written as
// it was; a callback that rounds to no time is an instant.
func TestSlicesAreClampedInsideTheirTurn(t *testing.T) {
	us := time.Microsecond
	path := filepath.Join(t.TempDir(), "trace.json")
	e, err := createEvents(path, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	e.describe("epoll")
	l := e.loop(0)
	l.write(&loop.Iteration{N: 1, Start: 10 * us, End: 20 * us, Polled: true, Timeout: time.Second, Asleep: 4 * us,
		Calls: []loop.Call{
			{Func: "a", Start: 12 * us, End: 16 * us},         // starts inside the wait
			{Func: "b", Start: 15 * us, End: 18 * us},         // overlaps a
			{Func: "c", Start: 18 * us, End: 23 * us},         // ends after the turn
			{Func: "d", Start: 20*us + 100, End: 20*us + 200}, // rounds to no time
		}}, 0)
	l.write(&loop.Iteration{N: 2, Start: 19 * us, End: 30 * us, // starts before turn 1 ended
		Calls: []loop.Call{{Func: "e", Start: 19 * us, End: 29 * us}}}, 0)
	if _, err := e.close(); err != nil {
		t.Fatal(err)
	}
	events := readTrace(t, path)
	checkNesting(t, events)
	type got struct {
		ph, name string
		ts, dur  float64
	}
	var slices []got
	for _, ev := range events {
		if ev.Ph == "X" || ev.Ph == "i" {
			g := got{ev.Ph, ev.Name, *ev.TS, 0}
			if ev.Dur != nil {
				g.dur = *ev.Dur
			}
			slices = append(slices, g)
		}
	}
	want := []got{
		{"X", "turn", 10, 10}, {"X", "wait", 10, 4},
		{"X", "a", 14, 2}, {"X", "b", 16, 2}, {"X", "c", 18, 2}, {"i", "d", 20, 0},
		{"X", "turn", 20, 10}, {"X", "e", 20, 9},
	}
	if len(slices) != len(want) {
		t.Fatalf("slices %v, want %v", slices, want)
	}
	for i := range want {
		if slices[i] != want[i] {
			t.Errorf("slice %d: %v, want %v", i, slices[i], want[i])
		}
	}
}

// micros rounds to the nearest microsecond, halves up, on both sides of
// zero alike: a rounding that is not monotone would undo the nesting.
func TestMicrosRoundsMonotonically(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int64
	}{{0, 0}, {499, 0}, {500, 1}, {1499, 1}, {1500, 2}, {-499, 0}, {-500, 0}, {-501, -1}, {-1500, -1}, {-1501, -2}} {
		if got := micros(c.d); got != c.want {
			t.Errorf("micros(%d ns) = %d, want %d", c.d, got, c.want)
		}
	}
	for d := -3000 * time.Nanosecond; d < 3000; d++ {
		if micros(d) > micros(d+1) {
			t.Fatalf("micros(%v) = %d > micros(%v) = %d", d, micros(d), d+1, micros(d+1))
		}
	}
}
