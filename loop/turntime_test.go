package loop_test

import (
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/netpoll"
)

// TurnTime is read once per turn: callbacks of one turn all see the same
// value, however long the ones before them ran, while Time moves on; the
// next turn sees a later one. Checked by hand: a TurnTime that reads the
// clock fails on the second callback.
func TestTurnTimeIsTheSameForEveryCallbackOfATurn(t *testing.T) {
	eachPoller(t, testTurnTimeOfOneTurn)
}

func testTurnTimeOfOneTurn(t *testing.T, l *loop.Loop) {
	var first, second, later time.Duration
	var realAfterSleep time.Duration
	l.CallSoon(func() {
		first = l.TurnTime()
		time.Sleep(5 * time.Millisecond)
		realAfterSleep = l.Time()
		l.CallSoon(func() { later = l.TurnTime(); l.Stop() }) // next turn
	})
	l.CallSoon(func() { second = l.TurnTime() })
	run(t, l)
	if second != first {
		t.Fatalf("two callbacks of one turn saw %v and %v", first, second)
	}
	if realAfterSleep < first+5*time.Millisecond {
		t.Fatalf("Time %v after sleeping 5 ms from %v: Time must read the clock", realAfterSleep, first)
	}
	if later < realAfterSleep {
		t.Fatalf("the next turn's time %v is before %v", later, realAfterSleep)
	}
}

// A reader sees the TurnTime of its own turn, read after the wait, not the
// one a callback read in the turn before it.
func TestTurnTimeOfAReaderIsReadAfterTheWait(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		a, b := socketPair(t, l)
		var sent, seen time.Duration
		if err := l.AddReader(a, func() { seen = l.TurnTime(); l.Stop() }); err != nil {
			t.Fatal(err)
		}
		l.CallSoon(func() {
			before := l.TurnTime()
			for sent = l.Time(); sent <= before; sent = l.Time() {
			}
			if _, err := netpoll.Write(b, []byte("x")); err != nil {
				t.Error(err)
			}
		})
		run(t, l)
		if seen < sent {
			t.Fatalf("a reader woken by bytes sent at %v saw TurnTime %v", sent, seen)
		}
	})
}

// A timer's callback sees a TurnTime at or past the timer's deadline: the
// turn reads its time when it checks the timers. And outside Run,
// TurnTime reads the clock.
func TestTurnTimeOfATimerAndOutsideRun(t *testing.T) {
	eachPoller(t, testTurnTimeOfATimer)
}

func testTurnTimeOfATimer(t *testing.T, l *loop.Loop) {
	before := l.TurnTime()
	time.Sleep(time.Millisecond)
	if after := l.TurnTime(); after < before+time.Millisecond {
		t.Fatalf("outside Run, TurnTime went from %v to %v across a 1 ms sleep", before, after)
	}
	var seen time.Duration
	tm := l.CallLater(2*time.Millisecond, func() { seen = l.TurnTime(); l.Stop() })
	run(t, l)
	if seen < tm.When() {
		t.Fatalf("a timer due at %v ran with TurnTime %v", tm.When(), seen)
	}
}
