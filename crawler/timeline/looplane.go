package timeline

import (
	"time"

	"loopkit/loop"
)

// LoopLane is how one event loop spent a run, for a lane above the
// connections: when it was busy running callbacks, when it was asleep in
// its poller's wait, and what woke it. Give it every turn of the loop:
// Add is a loop.Options.Trace function (cmd/crawl calls it from its own).
//
// It keeps a fixed number of time bins, whose width doubles whenever the
// run outgrows them: a day-long crawl costs the same 64 KiB as a
// second-long one, and a picture is about a thousand pixels wide anyway.
// Add runs on the loop's goroutine; draw the lane once the loop is done.
type LoopLane struct {
	Name string // "loop 0"
	// Offset is added to the loop's clock (loop.Loop.Time) to put its
	// turns on the clock of the picture's bars. 0 when the bars are on
	// this loop's clock.
	Offset time.Duration

	width time.Duration // of one bin; 0 until the first turn
	bins  []bin

	Turns  int           // turns added
	Busy   time.Duration // in callbacks
	Asleep time.Duration // in the poller's wait
	Wakes  [NumWakes]int // waits that could sleep, by what ended them
	first  time.Duration // the first turn's start, on the picture's clock
	last   time.Duration // the last turn's end
}

// Wake is what ended a wait that could sleep (a wait with a timeout of
// 0 is a poll: nothing wakes it).
type Wake int

const (
	WokenByIO    Wake = iota // a socket became ready
	WokenByTimer             // the nearest timer came due
	WokenByPost              // another goroutine posted a callback (CallSoonThreadsafe)
	WokenByNone              // the wait ran out, and nothing was due
	NumWakes
)

// WakeNames name the Wakes, in order.
var WakeNames = [NumWakes]string{"I/O", "a timer", "another goroutine", "nothing"}

// bin is what happened in one slice of time.
type bin struct {
	busy, asleep time.Duration
	wakes        [NumWakes]int32
}

const laneBins = 2048

// WakeOf says what woke a turn's wait: a ready fd first, then a posted
// callback (its wake-up is what made the wait return, when no fd did),
// then a timer. A turn may have all three; the first that applies wins.
func WakeOf(it *loop.Iteration) Wake {
	switch {
	case len(it.Ready) > 0:
		return WokenByIO
	case it.Posted > 0:
		return WokenByPost
	case it.Timers > 0:
		return WokenByTimer
	}
	return WokenByNone
}

// Add counts one turn of the loop. A record of what happened outside any
// turn (it.Outside: setting up, closing) is not part of the run, and is
// left out.
func (l *LoopLane) Add(it *loop.Iteration) {
	if it.Outside {
		return
	}
	start, end := it.Start+l.Offset, it.End+l.Offset
	if l.Turns == 0 {
		l.first = start
	}
	l.Turns++
	l.last = max(l.last, end)
	if it.Polled {
		woke := start + it.Asleep
		l.add(start, woke, false)
		l.Asleep += it.Asleep
		if it.Timeout != 0 {
			w := WakeOf(it)
			l.Wakes[w]++
			l.grow(woke)
			l.bins[woke/l.width].wakes[w]++
		}
	}
	for _, c := range it.Calls {
		l.add(c.Start+l.Offset, c.End+l.Offset, true)
	}
	if len(it.Calls) == 0 && it.Busy > 0 {
		// A record without its calls: the callbacks ran at the end of
		// the turn, after the wait.
		l.add(end-it.Busy, end, true)
	}
	l.Busy += it.Busy
}

// add counts the time from..to as busy or asleep, bin by bin.
func (l *LoopLane) add(from, to time.Duration, busy bool) {
	from = max(from, 0)
	if to <= from {
		return
	}
	l.grow(to)
	for i := from / l.width; i*l.width < to; i++ {
		d := min(to, (i+1)*l.width) - max(from, i*l.width)
		if busy {
			l.bins[i].busy += d
		} else {
			l.bins[i].asleep += d
		}
	}
}

// grow makes the bins reach past t: it halves their number by merging
// neighbours, doubling their width, as often as it takes.
func (l *LoopLane) grow(t time.Duration) {
	if l.width == 0 {
		l.width = time.Microsecond
		l.bins = make([]bin, laneBins)
	}
	for t >= l.width*laneBins {
		for i := range laneBins / 2 {
			a, b := l.bins[2*i], l.bins[2*i+1]
			m := bin{busy: a.busy + b.busy, asleep: a.asleep + b.asleep}
			for w := range m.wakes {
				m.wakes[w] = a.wakes[w] + b.wakes[w]
			}
			l.bins[i] = m
		}
		clear(l.bins[laneBins/2:])
		l.width *= 2
	}
}

// column is one pixel's worth of a lane: the parts of its time the loop
// was busy and asleep, and its wake-ups.
type column struct {
	busy, asleep float64 // 0..1
	wakes        [NumWakes]int32
}

// columns spreads the bins over n columns covering t0..t1: a bin wider
// than a column is spread evenly over the columns it covers; a wake-up
// goes to the column where its bin's middle is.
func (l *LoopLane) columns(t0, t1 time.Duration, n int) []column {
	cols := make([]column, n)
	if l.width == 0 || t1 <= t0 {
		return cols
	}
	colW := float64(t1-t0) / float64(n)
	for i, b := range l.bins {
		bs, be := time.Duration(i)*l.width, time.Duration(i+1)*l.width
		if be <= t0 || bs >= t1 || b == (bin{}) {
			continue
		}
		if mid := float64(bs+be)/2 - float64(t0); mid >= 0 && mid < float64(t1-t0) {
			c := &cols[int(mid/colW)]
			for w, k := range b.wakes {
				c.wakes[w] += k
			}
		}
		first, last := int(float64(max(bs, t0)-t0)/colW), int(float64(min(be, t1)-t0)/colW)
		for c := first; c <= last && c < n; c++ {
			cs, ce := t0+time.Duration(float64(c)*colW), t0+time.Duration(float64(c+1)*colW)
			overlap := float64(min(be, ce) - max(bs, cs))
			if overlap <= 0 {
				continue
			}
			share := overlap / float64(l.width) // of the bin, in this column
			cols[c].busy += float64(b.busy) * share / colW
			cols[c].asleep += float64(b.asleep) * share / colW
		}
	}
	for i := range cols {
		cols[i].busy = min(cols[i].busy, 1)
		cols[i].asleep = min(cols[i].asleep, 1-cols[i].busy)
	}
	return cols
}
