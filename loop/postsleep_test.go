package loop_test

import (
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/netpoll"
)

// Once the callbacks another goroutine posted have been taken, the loop
// sleeps again: the turn after the one that ran them, with nothing ready
// and no timer, waits for ever (timeout -1) until the socket it watches
// is readable, rather than polling (timeout 0) as if more were posted.
// The trace says what each turn gave the wait; no clock is involved.
func TestALoopSleepsAgainAfterAPostIsTaken(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			var timeouts []time.Duration
			tracing := false
			l, err := loop.New(&loop.Options{Poller: name, Trace: func(it *loop.Iteration) {
				if tracing && !it.Outside {
					timeouts = append(timeouts, it.Timeout)
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			client, server := socketPair(t, l) // its guards' timers are cancelled, and dropped at the next turn
			write := make(chan struct{})
			go func() {
				<-write
				netpoll.Write(server, []byte("x"))
			}()
			posted := make(chan error)
			go func() {
				posted <- l.CallSoonThreadsafe(func() {
					tracing = true // this turn's record is the first
					if err := l.AddReader(client, func() {
						l.RemoveReader(client)
						l.Stop()
					}); err != nil {
						t.Error(err)
					}
					close(write)
				})
			}()
			if err := <-posted; err != nil {
				t.Fatal(err)
			}
			hung := time.AfterFunc(10*time.Second, func() { t.Error("hung"); l.CallSoonThreadsafe(l.Stop) })
			defer hung.Stop()
			if err := l.Run(); err != nil {
				t.Fatal(err)
			}
			if len(timeouts) < 2 || timeouts[1] != -1 {
				t.Fatalf("the turn of the posted callback and those after it waited %v; want the second to sleep (-1)", timeouts[:min(len(timeouts), 5)])
			}
		})
	}
}
