package timeline

import (
	"math"
	"testing"
	"time"

	"loopkit/loop"
)

const ms = time.Millisecond

// Three turns: asleep until a timer, a callback; asleep until a socket,
// a callback; a busy turn of callbacks that did not wait. The lane counts
// them, and a column per millisecond says what the loop did in it.
func TestLoopLaneSaysBusyAsleepAndWhatWokeIt(t *testing.T) {
	l := &LoopLane{Name: "loop 0", Offset: 5 * ms}
	turns := []loop.Iteration{
		{N: 1, Start: 0, End: 12 * ms, Timeout: 10 * ms, Polled: true, Asleep: 10 * ms, Timers: 1, Callbacks: 1, Busy: 2 * ms,
			Calls: []loop.Call{{Start: 10 * ms, End: 12 * ms}}},
		{N: 2, Start: 12 * ms, End: 21 * ms, Timeout: -1, Polled: true, Asleep: 8 * ms, Ready: []loop.Ready{{FD: 9, Read: true}},
			Callbacks: 1, Busy: 1 * ms, Calls: []loop.Call{{Start: 20 * ms, End: 21 * ms}}},
		{N: 3, Start: 21 * ms, End: 30 * ms, Callbacks: 2, Busy: 9 * ms,
			Calls: []loop.Call{{Start: 21 * ms, End: 25 * ms}, {Start: 25 * ms, End: 30 * ms}}},
		{N: 3, Outside: true, Start: 40 * ms, End: 40 * ms, Callbacks: 1, Busy: ms}, // Close's: not the run's
	}
	for i := range turns {
		l.Add(&turns[i])
	}
	if l.Turns != 3 || l.Busy != 12*ms || l.Asleep != 18*ms || l.Wakes[WokenByTimer] != 1 || l.Wakes[WokenByIO] != 1 || l.Wakes[WokenByPost] != 0 {
		t.Fatalf("turns %d, busy %v, asleep %v, wakes %v", l.Turns, l.Busy, l.Asleep, l.Wakes)
	}
	// On the picture's clock, the loop's 0 is at 5 ms.
	cols := l.columns(5*ms, 35*ms, 30)
	for i, c := range cols {
		wantBusy := i >= 10 && i < 12 || i >= 20
		if busy := c.busy > 0.99; busy != wantBusy || (!busy && c.asleep < 0.99) {
			t.Errorf("ms %d: busy %.2f, asleep %.2f", i, c.busy, c.asleep)
		}
		// A wake-up is placed to within a bin (tens of µs here): the
		// waits ended on the boundary of columns 9 and 10, 19 and 20.
		woke := map[int]Wake{9: WokenByTimer, 10: WokenByTimer, 19: WokenByIO, 20: WokenByIO}
		for w, n := range c.wakes {
			if want, ok := woke[i]; n != 0 && (!ok || Wake(w) != want || n != 1) {
				t.Errorf("ms %d: %d wake-ups by %s", i, n, WakeNames[w])
			}
		}
	}
	timer := cols[9].wakes[WokenByTimer] + cols[10].wakes[WokenByTimer]
	if io := cols[19].wakes[WokenByIO] + cols[20].wakes[WokenByIO]; timer != 1 || io != 1 {
		t.Errorf("the two wake-ups are not where the waits ended")
	}
}

// A run longer than the bins reach merges them and keeps every
// nanosecond: the bins' busy time is the lane's, whatever the growth.
func TestLoopLaneGrowsAndKeepsItsTotals(t *testing.T) {
	l := &LoopLane{}
	var busy time.Duration
	for i := range 1000 {
		start := time.Duration(i) * 10 * ms // ten seconds in all
		d := time.Duration(i%7+1) * 100 * time.Microsecond
		busy += d
		l.Add(&loop.Iteration{N: uint64(i + 1), Start: start, End: start + d, Callbacks: 1, Busy: d,
			Calls: []loop.Call{{Start: start, End: start + d}}})
	}
	var inBins time.Duration
	for _, b := range l.bins {
		inBins += b.busy
	}
	if inBins != busy || l.Busy != busy {
		t.Fatalf("bins hold %v busy, lane %v, turns %v", inBins, l.Busy, busy)
	}
	if len(l.bins) != laneBins || l.width*laneBins <= 10*time.Second {
		t.Fatalf("%d bins of %v: they do not reach 10 s", len(l.bins), l.width)
	}
	cols := l.columns(0, 10*time.Second, 1000)
	total := 0.0
	for _, c := range cols {
		total += c.busy * float64(10*ms)
	}
	if math.Abs(total-float64(busy)) > float64(ms) {
		t.Fatalf("columns hold %v busy, the run %v", time.Duration(total), busy)
	}
}

// A host's ramp: one request, then two, then three at once; a request
// that ends as the next starts on its connection is not two in flight.
func TestRampLabelsEachNewMost(t *testing.T) {
	bar := func(host string, start, end time.Duration) Bar {
		return Bar{Host: host, Start: start, Phases: []Phase{{Name: "wait", End: end}}}
	}
	bars := []Bar{
		bar("h", 0, 10*ms), bar("h", 10*ms, 20*ms), // one after the other
		bar("h", 12*ms, 30*ms), bar("h", 15*ms, 30*ms), // two, then three
		bar("g", 5*ms, 6*ms), bar("", 0, 1*ms),
	}
	shown, hidden := ramps(bars)
	if hidden != 0 || len(shown) != 2 || shown[0].host != "h" || shown[1].host != "g" {
		t.Fatalf("ramps %+v, %d hidden; want h, then g", shown, hidden)
	}
	var rises []int
	for _, r := range shown[0].rises {
		rises = append(rises, r.n)
	}
	if len(rises) != 3 || rises[0] != 1 || rises[1] != 2 || rises[2] != 3 || shown[0].rises[1].at != 12*ms || shown[0].requests != 4 {
		t.Fatalf("h rises %v at %v, %d requests", rises, shown[0].rises, shown[0].requests)
	}
}
