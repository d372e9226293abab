package frontier_test

import (
	"testing"
	"time"

	"loopkit/crawler/frontier"
)

// A gate whose pass expires comes back as Gate first gave it, not with
// the target a redirect gave it since: the robots.txt of a host is asked
// of the host again, and may redirect elsewhere this time.
func TestAnExpiredGateGoesBackToItsFirstTarget(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 8})
	h := f.Host("http://a", "a")
	f.Gate(h, frontier.Item{URL: "http://a/robots.txt"})
	push(f, h, 0, "a1")
	g := next(t, f, 0)
	g.Item.URL = "http://b/robots.txt" // a redirect
	f.Requeue(g, 0, 0)
	g = next(t, f, 0)
	if !g.Gate || g.Item.URL != "http://b/robots.txt" {
		t.Fatalf("handed out %+v, want the redirected gate", g)
	}
	f.Open(h, time.Hour, nil)
	f.Finish(g, 0)
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Finish(j, 0)
	push(f, h, time.Hour, "a2")
	if g := next(t, f, time.Hour); !g.Gate || g.Item.URL != "http://a/robots.txt" {
		t.Fatalf("after the pass expired, handed out %+v, want the gate's first target", g)
	}
}

// Each congestion event slows a server down once: answers to requests
// handed out together, before the slow-down, count once; a request
// handed out after it and pushed back again is a new event, and slows
// the server down again.
func TestEveryCongestionEventSlowsOnce(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 4})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a0", "a1", "a2", "a3")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Succeeded(j) // two may be in flight from now on
	f.Finish(j, 0)
	j1, j2 := next(t, f, 0), next(t, f, 0)
	f.Sent(j1, 0)
	f.Sent(j2, 0)
	if !f.PushedBack(j1, 10*ms) {
		t.Fatal("the first 429 did not slow the server down")
	}
	if f.PushedBack(j2, 10*ms) {
		t.Fatal("a 429 to a request sent with the first slowed the server down again")
	}
	gap := f.Gap(h)
	f.Finish(j1, 10*ms)
	f.Finish(j2, 10*ms)
	at, ok := f.Wake()
	if !ok {
		t.Fatal("nothing to wake for, with a2 and a3 queued")
	}
	j3 := next(t, f, at)
	f.Sent(j3, at)
	if !f.PushedBack(j3, at) {
		t.Fatal("a 429 to a request sent after the slow-down did not slow the server down")
	}
	if f.Gap(h) <= gap {
		t.Fatalf("gap %v after the second event, want more than %v", f.Gap(h), gap)
	}
}

// A job of a host retired while it ran, requeued, is refused; its slot
// on the server is free all the same, and the server's other origin,
// which waited for it, goes at once.
func TestARefusedRequeueFreesTheServerForItsOtherOrigin(t *testing.T) {
	f := frontier.New(frontier.Options{})
	plain, tls := f.Host("http://a", "a"), f.Host("https://a", "a")
	push(f, plain, 0, "http://a/1")
	j := next(t, f, 0)
	f.Sent(j, 0)
	push(f, tls, 0, "https://a/1")
	none(t, f, 0) // one in flight: the server's limit
	f.Retire(plain, func(frontier.Item) {})
	if f.Requeue(j, 10*ms, 10*ms) {
		t.Fatal("a retired host took a retry back")
	}
	if j := next(t, f, 10*ms); j.Item.URL != "https://a/1" {
		t.Fatalf("handed out %s, want https://a/1", j.Item.URL)
	}
}

// A refusal holds the server for its new spacing when that is longer
// than the refusal's own hold: a server with a 2 s delay that answers
// 429 is spaced 4 s apart from then on, and the hold is 4 s, not 1 s.
func TestARefusalHoldsForTheSpacingWhenLonger(t *testing.T) {
	f := frontier.New(frontier.Options{Delay: 2 * time.Second})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.PushedBack(j, 100*ms)
	f.Finish(j, 100*ms)
	if f.Gap(h) != 4*time.Second {
		t.Fatalf("gap %v after the refusal, want 4s (twice the delay)", f.Gap(h))
	}
	none(t, f, 100*ms+4*time.Second-1)
	wake(t, f, 100*ms+4*time.Second)
}

// An item's queue time is when it last entered its host's queue: a retry
// put back at once, or once its backoff is over, is queued from then.
func TestARetryIsQueuedFromWhenItComesBack(t *testing.T) {
	f := frontier.New(frontier.Options{})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Requeue(j, 100*ms, 100*ms) // at once
	j = next(t, f, 100*ms)
	if j.Item.QueuedMS != 100 {
		t.Fatalf("requeued at 100ms: QueuedMS %d, want 100", j.Item.QueuedMS)
	}
	f.Sent(j, 100*ms)
	f.Requeue(j, 200*ms, 300*ms) // after a backoff
	j = next(t, f, 300*ms)
	if j.Item.QueuedMS != 300 {
		t.Fatalf("back from its backoff at 300ms: QueuedMS %d, want 300", j.Item.QueuedMS)
	}
}

// Sent heard for a job already over (its connection was given up while
// the request went out) changes nothing: the spacing counts from when
// the job ended, and the next job, handed out and not yet sent, still
// holds the server back.
func TestASendHeardAfterTheJobEndedChangesNothing(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 4, Delay: 100 * ms})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2", "a3")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Succeeded(j) // two may be in flight from now on
	f.Finish(j, 0)
	j = next(t, f, 100*ms)
	f.Finish(j, 150*ms) // given up before it was sent
	f.Sent(j, 160*ms)   // heard late
	wake(t, f, 250*ms)
	next(t, f, 250*ms)
	none(t, f, 250*ms) // a2 is not on the wire yet
}
