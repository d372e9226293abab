//go:build go1.24

package resp_test

import (
	"errors"
	"runtime"
	"testing"
	"time"
	"weak"

	"loopkit/crawler/resp"
)

// A closed client is let go by its loop: Close takes back the hook that
// would close it with the loop, and cancels the timer of its next attempt
// (an hour away here), so a program that makes and closes clients on a
// long-lived loop does not keep them all.
func TestAClosedClientIsNotKeptByItsLoop(t *testing.T) {
	for _, waitForRetry := range []bool{false, true} {
		l := newLoop(t)
		var wp weak.Pointer[resp.Client]
		func() {
			c, err := resp.NewClient(l, "redis://127.0.0.1:1", resp.Options{
				ConnectTimeout: 5 * time.Millisecond, MinBackoff: time.Hour, MaxBackoff: time.Hour,
			})
			if err != nil {
				t.Fatal(err)
			}
			wp = weak.Make(c)
			if waitForRetry {
				if _, err := await(t, l, c.Send("PING")); !errors.Is(err, resp.ErrNotConnected) {
					t.Fatalf("PING to a closed port: %v", err)
				}
			}
			c.Close()
		}()
		// Past the attempt's own timer, so that nothing the loop still
		// holds for it points at the client.
		runFor(t, l, 30*time.Millisecond)
		for i := 0; i < 20 && wp.Value() != nil; i++ {
			runtime.GC()
		}
		if wp.Value() != nil {
			t.Fatalf("closed while waiting to retry: %v: the closed client is still reachable from its loop", waitForRetry)
		}
	}
}
