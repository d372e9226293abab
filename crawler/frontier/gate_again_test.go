package frontier_test

import (
	"testing"

	"loopkit/crawler/frontier"
)

// A gate set again while the old one waits out a backoff is the host's
// next job at once: Gate makes the host ready, it does not wait for the
// old gate's backoff to end.
func TestAGateSetWhileTheOldWaitsOutABackoffGoesAtOnce(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 8})
	h := f.Host("http://a", "a")
	f.Gate(h, frontier.Item{URL: "http://a/robots.txt"})
	push(f, h, 0, "a1")
	g := next(t, f, 0)
	f.Requeue(g, 0, 50*ms)
	f.Gate(h, frontier.Item{URL: "http://a/robots2.txt"})
	if g := next(t, f, 10*ms); !g.Gate || g.Item.URL != "http://a/robots2.txt" {
		t.Fatalf("handed out %+v, want the new gate", g)
	}
}

// A retry due at the very time it is requeued goes straight back to its
// queue: counted as queued, not as waiting out a backoff.
func TestARetryDueNowIsQueuedAtOnce(t *testing.T) {
	f := frontier.New(frontier.Options{})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1")
	j := next(t, f, 0)
	if !f.Requeue(j, 10*ms, 10*ms) {
		t.Fatal("Requeue refused a retry of a live host")
	}
	if f.Queued() != 1 || f.Delayed() != 0 {
		t.Fatalf("Queued %d Delayed %d, want 1 0", f.Queued(), f.Delayed())
	}
}

// A hold moves its host behind a host that may go now: the first host
// created no longer comes first, and the other is handed out at once.
func TestAHeldHostGivesWayToOneThatMayGo(t *testing.T) {
	f := frontier.New(frontier.Options{})
	a, b := f.Host("http://a", "a"), f.Host("http://b", "b")
	push(f, a, 0, "a1")
	push(f, b, 0, "b1")
	f.HoldUntil(a, 100*ms)
	if j := next(t, f, 0); j.Item.URL != "b1" {
		t.Fatalf("handed out %s at 0, want b1", j.Item.URL)
	}
	wake(t, f, 100*ms)
}
