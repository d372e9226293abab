package loop

import (
	"sync/atomic"
	"testing"
	"time"

	"loopkit/netpoll"
)

// sleepSignal is a poller that says when the loop goes to sleep: a Wait
// with no timeout, the loop having nothing else to wait for.
type sleepSignal struct {
	netpoll.Poller
	asleep chan struct{}
}

func (p *sleepSignal) Wait(timeout time.Duration) ([]netpoll.Event, error) {
	if timeout < 0 {
		select {
		case p.asleep <- struct{}{}:
		default:
		}
	}
	return p.Poller.Wait(timeout)
}

// A post from another goroutine wakes a loop asleep with nothing to wait
// for. The post is made once the loop has gone to sleep (the poller says
// so). The guard cannot be a loop timer, which would wake the loop itself
// and hide a lost wake-up: it wakes the poller directly, 10 s later. If
// the guard had to, the post never woke the loop. If the loop never goes
// to sleep, the post is made after 10 s all the same, to end the run.
func TestAPostWakesALoopAsleepWithoutTimers(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			SkipAfterAHang(t)
			l, err := New(&Options{Poller: name})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			p := &sleepSignal{Poller: l.poller, asleep: make(chan struct{}, 1)} // kept until read
			l.poller = p
			ranByPost := false
			var guardWoke atomic.Bool
			stopped := make(chan struct{})
			var neverSlept atomic.Bool
			go func() {
				select {
				case <-p.asleep:
				case <-time.After(10 * time.Second):
					// A loop that never sleeps with nothing to do spins; it
					// takes a post all the same, and this one ends the run.
					neverSlept.Store(true)
					AGuardFired.Store(true)
				}
				if err := l.CallSoonThreadsafe(func() { ranByPost = true; l.Stop() }); err != nil {
					t.Error(err)
				}
				select {
				case <-stopped:
				case <-time.After(10 * time.Second):
					guardWoke.Store(true)
					AGuardFired.Store(true)
					p.Poller.Wake()
				}
			}()
			err = l.Run()
			close(stopped)
			if err != nil {
				t.Fatal(err)
			}
			if neverSlept.Load() {
				t.Fatal("in 10 s the loop, with nothing to do, never waited without a timeout: it spins")
			}
			if !ranByPost || guardWoke.Load() {
				t.Fatalf("the post's callback ran: %v; the guard had to wake the loop 10 s later: %v (a post must wake a sleeping loop)", ranByPost, guardWoke.Load())
			}
		})
	}
}
