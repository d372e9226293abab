package loop_test

import (
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/netpoll"
)

// A post from another goroutine wakes a loop asleep with nothing to wait
// for: no timer, only a socket that stays quiet. The test's guard cannot
// be a loop timer, which would wake the loop itself and hide a lost
// wake-up; it is a byte written to the socket from outside, 10 s later.
// If the post's callback ran only after that byte, the post never woke
// the loop.
func TestAPostWakesALoopAsleepWithoutTimers(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		client, server := socketPair(t, l)
		wokenBySocket := false
		if err := l.AddReader(client, func() { wokenBySocket = true; l.Stop() }); err != nil {
			t.Fatal(err)
		}
		ranByPost := false
		asleep := make(chan struct{})
		l.CallSoon(func() { close(asleep) }) // the loop runs, then sleeps
		stopped := make(chan struct{})
		go func() {
			<-asleep
			time.Sleep(20 * time.Millisecond) // let the loop go to sleep
			if err := l.CallSoonThreadsafe(func() { ranByPost = true; l.Stop() }); err != nil {
				t.Error(err)
			}
			select {
			case <-stopped:
			case <-time.After(10 * time.Second):
				netpoll.Write(server, []byte("x")) // the guard: wakes a loop the post did not
			}
		}()
		err := l.Run()
		close(stopped)
		if err != nil {
			t.Fatal(err)
		}
		if !ranByPost || wokenBySocket {
			t.Fatalf("the post's callback ran: %v; the loop was woken by the guard's byte 10 s later: %v (a post must wake a sleeping loop)", ranByPost, wokenBySocket)
		}
	})
}
