package loop

import (
	"sync/atomic"
	"testing"
	"time"

	"loopkit/netpoll"
)

// slowWake is a poller whose Wake stops half-way until released, so a test
// can hold a CallSoonThreadsafe inside its wake-up while Close runs. It
// records a Close that came while a Wake was under way: the wake-up would
// then write to a closed descriptor, or to a new one that got its number.
type slowWake struct {
	netpoll.Poller
	inWake, release  chan struct{}
	waking           atomic.Bool
	closedDuringWake atomic.Bool
	closed           chan struct{}
}

func (p *slowWake) Wake() error {
	p.waking.Store(true)
	defer p.waking.Store(false)
	p.inWake <- struct{}{}
	<-p.release
	return p.Poller.Wake()
}

func (p *slowWake) Close() error {
	if p.waking.Load() {
		p.closedDuringWake.Store(true)
	}
	close(p.closed)
	return p.Poller.Close()
}

// Close must not close the poller while a CallSoonThreadsafe that got past
// the "closed" check is still waking it.
func TestCloseWaitsForAWakeUpUnderWay(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, err := New(&Options{Poller: name})
			if err != nil {
				t.Fatal(err)
			}
			p := &slowWake{Poller: l.poller, inWake: make(chan struct{}),
				release: make(chan struct{}), closed: make(chan struct{})}
			l.poller = p

			posted := make(chan error, 1)
			go func() { posted <- l.CallSoonThreadsafe(func() {}) }()
			select {
			case <-p.inWake:
			case <-time.After(10 * time.Second):
				t.Fatal("CallSoonThreadsafe never reached Wake")
			}
			closed := make(chan error, 1)
			go func() { closed <- l.Close() }()
			// A correct Close waits for the wake-up and cannot get to the
			// poller; give a wrong one time to get there, then let go.
			select {
			case <-p.closed:
			case <-time.After(100 * time.Millisecond):
			}
			close(p.release)
			for _, c := range []chan error{posted, closed} {
				select {
				case err := <-c:
					if err != nil {
						t.Errorf("CallSoonThreadsafe or Close: %v", err)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("hung: CallSoonThreadsafe or Close never returned")
				}
			}
			if p.closedDuringWake.Load() {
				t.Fatal("Close closed the poller while a CallSoonThreadsafe was still waking it")
			}
		})
	}
}
