package frontier_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"loopkit/crawler/frontier"
)

// Wake names the earliest of the times something could go: a host that
// waits for its server's time, or a retry that waits out its backoff,
// whichever comes first.
func TestWakeNamesARetryThatComesBeforeAHeldHost(t *testing.T) {
	f := frontier.New(frontier.Options{})
	held, retried := f.Host("http://a", "a"), f.Host("http://b", "b")
	push(f, held, 0, "a1")
	f.HoldUntil(held, time.Second)
	push(f, retried, 0, "b1")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Requeue(j, 0, 300*ms)
	wake(t, f, 300*ms)
	if j := next(t, f, 300*ms); j.Item.URL != "b1" {
		t.Fatalf("handed out %s at 300ms, want the retry of b1", j.Item.URL)
	}
	wake(t, f, time.Second)
}

// A request sent again on a fresh connection is one request: the second
// Sent moves the spacing (the last send counts) but does not count it as
// sent twice, so the next job, handed out and not yet sent, still holds
// the server back.
func TestARequestSentTwiceIsCountedOnce(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 4, Delay: 100 * ms})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2", "a3")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Succeeded(j) // two may be in flight from now on
	f.Sent(j, 10*ms)
	wake(t, f, 110*ms)
	f.Finish(j, 20*ms)
	next(t, f, 110*ms)
	none(t, f, 110*ms) // a2 is not on the wire yet
}

// Retiring a host takes its retries out of the heap of retries, and the
// others keep their order: the earliest still goes first.
func TestRetireKeepsTheOtherRetriesInOrder(t *testing.T) {
	f := frontier.New(frontier.Options{})
	var hosts []*frontier.Host
	for i, name := range []string{"a", "b", "c"} {
		h := f.Host("http://"+name, name)
		hosts = append(hosts, h)
		push(f, h, 0, name+"1")
		j := next(t, f, 0)
		f.Sent(j, 0)
		f.Requeue(j, 0, []time.Duration{100 * ms, 500 * ms, 200 * ms}[i])
	}
	var handed []string
	f.Retire(hosts[0], func(it frontier.Item) { handed = append(handed, it.URL) })
	if !slices.Equal(handed, []string{"a1"}) {
		t.Fatalf("retiring a handed back %v, want a1", handed)
	}
	wake(t, f, 200*ms)
	if j := next(t, f, 200*ms); j.Item.URL != "c1" {
		t.Fatalf("handed out %s at 200ms, want c1", j.Item.URL)
	}
	wake(t, f, 500*ms)
}

// A host forgotten while its gate waits out a backoff needs its gate
// again: pushed to later, it hands the gate out first, and is not stuck
// behind a backoff that was dropped with the rest.
func TestAForgottenHostsGateIsNeededAgain(t *testing.T) {
	f := frontier.New(frontier.Options{})
	h := f.Host("http://a", "a")
	f.Gate(h, frontier.Item{URL: "http://a/robots.txt"})
	push(f, h, 0, "a1")
	g := next(t, f, 0)
	f.Requeue(g, 0, time.Minute)
	f.Forget(h, nil)
	if f.Queued() != 0 || f.Delayed() != 0 || !f.Empty() {
		t.Fatalf("after Forget: queued %d, delayed %d, empty %v; want nothing left", f.Queued(), f.Delayed(), f.Empty())
	}
	push(f, h, 10*ms, "a2")
	if g := next(t, f, 10*ms); !g.Gate || g.Item.URL != "http://a/robots.txt" {
		t.Fatalf("handed out %+v, want the gate", g)
	}
}

// Waiting counts the queued URLs of every host that may not start now:
// one whose server is held, one whose server is at its limit, one behind
// its gate; not those of a host that may go.
func TestWaitingCountsEveryHostThatMayNotGo(t *testing.T) {
	f := frontier.New(frontier.Options{})
	held, busy, gated, free := f.Host("http://a", "a"), f.Host("http://b", "b"), f.Host("http://c", "c"), f.Host("http://d", "d")
	push(f, busy, 0, "b1", "b2")
	next(t, f, 0) // b1 in flight: b is at its limit
	push(f, held, 0, "a1", "a2")
	f.HoldUntil(held, time.Second)
	f.Gate(gated, frontier.Item{URL: "http://c/robots.txt"})
	push(f, gated, 0, "c1", "c2", "c3")
	next(t, f, 0) // the gate: c's queue waits behind it
	push(f, free, 0, "d1")
	if n := f.Waiting(0); n != 2+1+3 {
		t.Fatalf("Waiting(0) = %d, want 6: a's 2 (held), b's 1 (at its limit), c's 3 (behind its gate)", n)
	}
}

// QueuedPeak is the most URLs that were ever queued at once, not how many
// were queued at the last Push.
func TestQueuedPeakIsTheMostEver(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 4})
	h, other := f.Host("http://a", "a"), f.Host("http://b", "b")
	push(f, h, 0, "a1", "a2", "a3")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Succeeded(j) // two may be in flight from now on
	next(t, f, 0)
	push(f, other, 0, "b1")
	if f.Queued() != 2 || f.QueuedPeak() != 3 {
		t.Fatalf("queued %d, peak %d; want 2 and 3", f.Queued(), f.QueuedPeak())
	}
}

// When a job ends, every origin of its server may go: http://a and
// https://a are one server, so the https URL that waited while the http
// one was in flight is handed out as soon as that one is over.
func TestAFinishedJobFreesEveryOriginOfItsServer(t *testing.T) {
	f := frontier.New(frontier.Options{})
	plain, tls := f.Host("http://a", "a"), f.Host("https://a", "a")
	push(f, plain, 0, "http://a/1")
	j := next(t, f, 0)
	f.Sent(j, 0)
	push(f, tls, 0, "https://a/1")
	none(t, f, 0) // the server has one in flight, its limit
	f.Finish(j, 10*ms)
	if j := next(t, f, 10*ms); j.Item.URL != "https://a/1" {
		t.Fatalf("handed out %s, want https://a/1", j.Item.URL)
	}
}

// A retry requeued after Stop goes back to its queue at once, whatever
// its backoff, so that it is counted with what is left; it is never
// handed out.
func TestARetryAfterStopIsCountedAsQueued(t *testing.T) {
	f := frontier.New(frontier.Options{})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Stop(0)
	if !f.Requeue(j, 10*ms, time.Minute) {
		t.Fatal("the retry was refused")
	}
	if f.Queued() != 2 || f.Delayed() != 0 || !f.Empty() {
		t.Fatalf("queued %d, delayed %d, empty %v; want 2, 0 and true", f.Queued(), f.Delayed(), f.Empty())
	}
	none(t, f, 2*time.Minute)
}

// A retry waiting out its backoff is work left: the frontier is not
// empty while one waits, even with nothing queued or running.
func TestARetryWaitingIsNotEmpty(t *testing.T) {
	f := frontier.New(frontier.Options{})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Requeue(j, 0, time.Second)
	if f.Empty() || f.Queued() != 0 || f.Running() != 0 || f.Delayed() != 1 {
		t.Fatalf("empty %v, queued %d, running %d, delayed %d; want a retry waiting, and not empty",
			f.Empty(), f.Queued(), f.Running(), f.Delayed())
	}
}

// A 429, or a failure rate over 5 %, slows the server down and holds it
// for its new spacing from the answer — a 429 for a second at least, as
// any refusal that names no Retry-After: nothing else is sent to it
// before then, though another URL waits.
func TestSlowingDownHoldsTheServer(t *testing.T) {
	for name, slowDown := range map[string]func(*testing.T, *frontier.Frontier, *frontier.Job){
		"a 429": func(t *testing.T, f *frontier.Frontier, j *frontier.Job) {
			if !f.PushedBack(j, 10*ms) {
				t.Fatal("a first 429 did not slow the server down")
			}
		},
		"a failure rate": func(t *testing.T, f *frontier.Frontier, j *frontier.Job) {
			for range 28 {
				f.Succeeded(j) // the server's last outcomes, as they came
			}
			if f.Failed(j, 5*ms) {
				t.Fatal("one failure in twenty-nine slowed the server down")
			}
			if !f.Failed(j, 10*ms) {
				t.Fatal("two failures in thirty did not slow the server down")
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := frontier.New(frontier.Options{PerHost: 2})
			h := f.Host("http://a", "a")
			push(f, h, 0, "a1", "a2")
			j := next(t, f, 0)
			f.Sent(j, 0)
			slowDown(t, f, j)
			f.Finish(j, 10*ms)
			hold := f.Gap(h)
			if name == "a 429" {
				hold = max(hold, time.Second)
			}
			none(t, f, 10*ms+hold-1)
			wake(t, f, 10*ms+hold)
		})
	}
}

// Retiring a host hands back its pages, not its gate: a robots.txt that
// waits out a backoff is the crawler's own business, not a page to record
// as given up.
func TestRetireHandsBackPagesNotTheGate(t *testing.T) {
	f := frontier.New(frontier.Options{})
	h := f.Host("http://a", "a")
	f.Gate(h, frontier.Item{URL: "http://a/robots.txt"})
	push(f, h, 0, "a1")
	g := next(t, f, 0)
	f.Requeue(g, 0, time.Minute) // the gate waits out a backoff
	push(f, h, 0, "a2")
	var handed []string
	f.Retire(h, func(it frontier.Item) { handed = append(handed, it.URL) })
	if !slices.Equal(handed, []string{"a1", "a2"}) {
		t.Fatalf("retiring handed back %v, want a1 a2", handed)
	}
	if f.Delayed() != 0 || !f.Empty() {
		t.Fatalf("delayed %d, empty %v after Retire; want nothing left", f.Delayed(), f.Empty())
	}
}

// Retries of a host that come back together keep their order, ahead of
// the URLs queued after them: the one requeued first goes first, also
// after Stop has put them back.
func TestRetriesComingBackTogetherKeepTheirOrder(t *testing.T) {
	for _, stop := range []bool{false, true} {
		f := frontier.New(frontier.Options{PerHost: 4})
		h := f.Host("http://a", "a")
		push(f, h, 0, "a1", "a2", "a3", "a4")
		j1 := next(t, f, 0)
		f.Sent(j1, 0)
		f.Succeeded(j1) // two may be in flight from now on
		j2 := next(t, f, 0)
		f.Sent(j2, 0)
		f.Requeue(j1, 0, 100*ms)
		f.Requeue(j2, 0, 100*ms)
		var got []string
		take := func() {
			j := next(t, f, 100*ms)
			got = append(got, j.Item.URL)
			f.Sent(j, 100*ms)
			f.Finish(j, 100*ms)
		}
		if stop {
			f.Stop(50 * ms)
			// Nothing is handed out once stopped; what is left is in order
			// when read back the only way there is: by Retire.
			f.Retire(h, func(it frontier.Item) { got = append(got, it.URL) })
		} else {
			for range 4 {
				take()
			}
		}
		if want := []string{"a1", "a2", "a3", "a4"}; !slices.Equal(got, want) {
			t.Fatalf("stopped %v: came out %v, want %v", stop, got, want)
		}
	}
}

// An item's queue time stops at its field's end, some 24 days of loop
// time, instead of wrapping round to a negative time.
func TestQueuedTimeSaturates(t *testing.T) {
	f := frontier.New(frontier.Options{})
	h := f.Host("http://a", "a")
	late := 30 * 24 * time.Hour
	push(f, h, late, "a1")
	if j := next(t, f, late); j.Item.QueuedMS != math.MaxInt32 {
		t.Fatalf("queued at %v: QueuedMS %d, want %d", late, j.Item.QueuedMS, int32(math.MaxInt32))
	}
}

// Many retries of a host due at the same moment come back in the order
// they were requeued, however many there are: the time alone does not
// order them.
func TestManyRetriesDueTogetherComeBackInTheirOrder(t *testing.T) {
	f := frontier.New(frontier.Options{})
	h := f.Host("http://a", "a")
	urls := []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7"}
	push(f, h, 0, urls...)
	for range urls {
		j := next(t, f, 0)
		f.Sent(j, 0)
		f.Requeue(j, 0, 100*ms)
	}
	none(t, f, 50*ms)
	var got []string
	for range urls {
		j := next(t, f, 100*ms)
		got = append(got, j.Item.URL)
		f.Sent(j, 100*ms)
		f.Finish(j, 100*ms)
	}
	if !slices.Equal(got, urls) {
		t.Fatalf("came out %v, want %v", got, urls)
	}
}
