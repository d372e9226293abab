package frontier_test

import (
	"slices"
	"testing"
	"time"

	"loopkit/crawler/frontier"
)

// A host retired while it could go is out of the running at once: the
// next job is another host's, and after that there is nothing.
func TestARetiredHostThatCouldGoHandsOutNothing(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 2})
	a, b := f.Host("http://a", "a"), f.Host("http://b", "b")
	push(f, a, 0, "a1", "a2")
	push(f, b, 0, "b1")
	f.Retire(a, func(frontier.Item) {})
	if j := next(t, f, 0); j.Item.URL != "b1" {
		t.Fatalf("handed out %q, want b1", j.Item.URL)
	}
	none(t, f, time.Hour)
}

// Forget hands back the pages a host had queued or waiting out a
// backoff, and never its gate: a gate is the host's own business (its
// robots.txt), made again by whoever works the host next.
func TestForgetHandsBackPagesNotTheGate(t *testing.T) {
	f := frontier.New(frontier.Options{})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2")
	f.Gate(h, frontier.Item{URL: "http://a/robots.txt"})
	g := next(t, f, 0)
	f.Open(h, 0, nil)
	f.Finish(g, 0)
	j := next(t, f, 0)
	f.Requeue(j, 0, time.Minute) // a1 waits out a backoff
	f.Gate(h, frontier.Item{URL: "http://a/robots.txt"})
	g = next(t, f, 0)
	if !g.Gate {
		t.Fatalf("handed out %+v, want the gate", g)
	}
	f.Requeue(g, 0, time.Minute) // and so does the gate, sent again
	var handed []string
	f.Forget(h, func(it frontier.Item) { handed = append(handed, it.URL) })
	slices.Sort(handed)
	if !slices.Equal(handed, []string{"a1", "a2"}) {
		t.Fatalf("Forget handed back %v, want a1 and a2", handed)
	}
}

// A stopped frontier names no time to wake at, though a host could go:
// it hands out nothing more, and a timer armed for it would wake a loop
// for nothing.
func TestAStoppedFrontierHasNoTimeToWake(t *testing.T) {
	f := frontier.New(frontier.Options{})
	push(f, f.Host("http://a", "a"), 0, "a1")
	wake(t, f, 0)
	f.Stop(0)
	if at, ok := f.Wake(); ok {
		t.Fatalf("Wake() = %v, true after Stop; want false", at)
	}
}

// A forgotten host's queue is empty: it leaves the ready heap at once, and
// Next hands out nothing of it, not an empty item.
func TestAForgottenHostHandsOutNothing(t *testing.T) {
	f := frontier.New(frontier.Options{})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2")
	f.Forget(h, nil)
	none(t, f, 0)
	if _, ok := f.Wake(); ok || f.Queued() != 0 || !f.Empty() {
		t.Fatalf("after Forget: wake %v, queued %d, empty %v; want nothing left", ok, f.Queued(), f.Empty())
	}
}

// Open lets the queue go at once, even while the gate job is still in
// flight: with room for two, a page goes out beside it.
func TestOpenLetsTheQueueGoBeforeTheGateFinishes(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 2})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1")
	f.Gate(h, frontier.Item{URL: "robots"})
	g := next(t, f, 0)
	f.Sent(g, 0)
	f.Succeeded(g) // room for two from now on
	none(t, f, 0)  // the queue waits for its gate
	f.Open(h, 0, nil)
	if j := next(t, f, 0); j.Gate || j.Item.URL != "a1" {
		t.Fatalf("handed out %+v, want a1 beside the gate in flight", j.Item)
	}
}
