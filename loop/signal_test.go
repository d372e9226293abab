package loop_test

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// sendSignalsFor sends SIGUSR1 to this process every few milliseconds for
// d, with the signal caught (so it interrupts system calls and does not
// kill the test).
func sendSignalsFor(t *testing.T, d time.Duration) (stop func()) {
	t.Helper()
	caught := make(chan os.Signal, 64)
	signal.Notify(caught, syscall.SIGUSR1)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		end := time.After(d)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-end:
				return
			case <-tick.C:
				syscall.Kill(os.Getpid(), syscall.SIGUSR1)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		signal.Stop(caught)
		if len(caught) == 0 {
			t.Error("no signal was delivered")
		}
	}
}
