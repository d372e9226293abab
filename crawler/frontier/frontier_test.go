package frontier_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"loopkit/crawler/frontier"
)

const ms = time.Millisecond

// next takes a job at now, or fails the test.
func next(t *testing.T, f *frontier.Frontier, now time.Duration) *frontier.Job {
	t.Helper()
	j, ok := f.Next(now)
	if !ok {
		t.Fatalf("at %v: nothing handed out", now)
	}
	return j
}

// none checks that nothing is handed out at now.
func none(t *testing.T, f *frontier.Frontier, now time.Duration) {
	t.Helper()
	if j, ok := f.Next(now); ok {
		t.Fatalf("at %v: handed out %s", now, j.Item.URL)
	}
}

func wake(t *testing.T, f *frontier.Frontier, want time.Duration) {
	t.Helper()
	if at, ok := f.Wake(); !ok || at != want {
		t.Fatalf("Wake() = %v, %v; want %v, true", at, ok, want)
	}
}

func push(f *frontier.Frontier, h *frontier.Host, now time.Duration, urls ...string) {
	for _, u := range urls {
		f.Push(h, frontier.Item{URL: u}, now)
	}
}

// The spacing counts from the moment a request is sent, not from the
// moment it was handed out: a slow connect does not shorten the gap the
// server sees. Until it is sent, the server starts nothing else.
func TestSpacingCountsFromTheSend(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 4, Delay: 100 * ms})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a0", "a1", "a2")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Succeeded(j) // the server may have two in flight from now on
	f.Finish(j, 0)
	j = next(t, f, 100*ms)
	none(t, f, 100*ms) // under its limit, but a1 is not on the wire yet
	if at, ok := f.Wake(); ok {
		t.Fatalf("Wake() = %v while a1 is not sent; want nothing until it is", at)
	}
	f.Sent(j, 130*ms) // its connect took 30 ms
	wake(t, f, 230*ms)
	none(t, f, 229*ms)
	if j2 := next(t, f, 230*ms); j2.Item.URL != "a2" {
		t.Fatalf("handed out %s, want a2", j2.Item.URL)
	}
	if f.Running() != 2 {
		t.Fatalf("%d running, want a1 and a2", f.Running())
	}
}

// Without a spacing to keep, a request not yet sent holds nothing up.
func TestNoSpacingNoWaitForTheSend(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 2})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2", "a3", "a4")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Succeeded(j) // the limit grows from one to two
	f.Finish(j, 0)
	next(t, f, 0)
	next(t, f, 0)
	none(t, f, 0) // two in flight, at the limit
}

// A job that never reached the wire spaces its server from when it ended.
func TestUnsentJobSpacesFromItsEnd(t *testing.T) {
	f := frontier.New(frontier.Options{Delay: 100 * ms})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2")
	j := next(t, f, 0)
	f.Finish(j, 40*ms) // refused before anything was sent
	wake(t, f, 140*ms)
}

// Of the hosts whose time has come, the one whose time came first goes;
// between equal times, the host created first — however often either was
// pushed to since.
func TestOrderIsTimeThenCreation(t *testing.T) {
	f := frontier.New(frontier.Options{Delay: 100 * ms})
	a, b, c := f.Host("http://a", "a"), f.Host("http://b", "b"), f.Host("http://c", "c")
	push(f, c, 0, "c1")
	push(f, b, 0, "b1")
	push(f, a, 0, "a1")
	push(f, b, 0, "b2")
	var got []string
	for range 3 {
		j := next(t, f, 0)
		got = append(got, j.Item.URL)
		f.Sent(j, 0)
		f.Finish(j, 0)
	}
	if want := []string{"a1", "b1", "c1"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v (creation order on equal times)", got, want)
	}
	f.HoldUntil(a, 500*ms) // a's time is now later than b's
	push(f, a, 0, "a2")
	if j := next(t, f, 100*ms); j.Item.URL != "b2" {
		t.Fatalf("handed out %s, want b2: a is held until 500ms", j.Item.URL)
	}
	none(t, f, 499*ms)
	if j := next(t, f, 500*ms); j.Item.URL != "a2" {
		t.Fatalf("handed out %s, want a2", j.Item.URL)
	}
}

// HoldUntil never moves a server's time earlier, holds every origin of
// the server, and works on a host with nothing queued yet.
func TestHoldUntilIsPerServerAndOnlyLater(t *testing.T) {
	f := frontier.New(frontier.Options{})
	plain, tls := f.Host("http://a", "a"), f.Host("https://a", "a")
	f.HoldUntil(plain, 300*ms)
	f.HoldUntil(plain, 100*ms) // earlier: ignored
	push(f, tls, 0, "https://a/1")
	none(t, f, 299*ms)
	wake(t, f, 300*ms)
	next(t, f, 300*ms)
}

// A host whose queue ran dry keeps its time: new URLs do not reset its
// spacing.
func TestDryHostKeepsItsTime(t *testing.T) {
	f := frontier.New(frontier.Options{Delay: 100 * ms})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Finish(j, 5*ms)
	push(f, h, 10*ms, "a2")
	none(t, f, 10*ms)
	wake(t, f, 100*ms)
}

// A retry waits out its backoff in the frontier, not in a worker, then
// goes before the URLs queued after it.
func TestRequeueWaitsOutTheBackoffAtTheFront(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 1})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2")
	j := next(t, f, 0)
	f.Sent(j, 0)
	j.Item.Tries = 1
	if !f.Requeue(j, 10*ms, 200*ms) {
		t.Fatal("requeue refused")
	}
	if f.Empty() || f.Delayed() != 1 || f.Queued() != 1 {
		t.Fatalf("empty %v, delayed %d, queued %d; want a retry waiting and a2 queued", f.Empty(), f.Delayed(), f.Queued())
	}
	j2 := next(t, f, 10*ms) // a2 goes meanwhile
	f.Sent(j2, 10*ms)
	f.Finish(j2, 20*ms)
	wake(t, f, 200*ms)
	push(f, h, 30*ms, "a3")
	if j := next(t, f, 200*ms); j.Item.URL != "a1" || j.Item.Tries != 1 {
		t.Fatalf("handed out %+v, want the retry of a1 first", j.Item)
	}
}

// A gate is handed out alone; the queue waits until it is opened, and
// what Open's keep refuses is dropped. A gate finished without Open is
// needed again; a pass that expires makes the gate the next job again.
func TestGateGoesFirstAndAlone(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 8})
	h := f.Host("http://a", "a")
	f.Gate(h, frontier.Item{URL: "http://a/robots.txt"})
	none(t, f, 0) // nothing queued: no gate either
	push(f, h, 0, "a1", "secret", "a2")
	g := next(t, f, 0)
	if !g.Gate || g.Item.URL != "http://a/robots.txt" {
		t.Fatalf("first job %+v, want the gate", g)
	}
	none(t, f, 0)
	f.Finish(g, 0) // neither opened nor retired: still closed
	g = next(t, f, 0)
	if !g.Gate {
		t.Fatalf("after a gate finished unopened, handed out %s, want the gate again", g.Item.URL)
	}
	f.Open(h, time.Hour, func(it frontier.Item) bool { return it.URL != "secret" })
	f.Finish(g, 0)
	if f.Queued() != 2 {
		t.Fatalf("%d queued after the gate's filter, want 2", f.Queued())
	}
	var got []string
	for range 2 {
		j := next(t, f, 0)
		got = append(got, j.Item.URL)
		f.Sent(j, 0)
		f.Succeeded(j)
		f.Finish(j, 0)
	}
	if !slices.Equal(got, []string{"a1", "a2"}) {
		t.Fatalf("pages %v, want a1 a2", got)
	}
	push(f, h, time.Hour, "a3")
	if g := next(t, f, time.Hour); !g.Gate || g.Item.URL != "http://a/robots.txt" {
		t.Fatalf("after the pass expired, handed out %+v, want the gate", g)
	}
}

// A gate redirected is requeued with its new target; after a backoff the
// queue still waits behind it.
func TestGateRequeuedHoldsTheQueue(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 8})
	h := f.Host("http://a", "a")
	f.Gate(h, frontier.Item{URL: "http://a/robots.txt"})
	push(f, h, 0, "a1")
	g := next(t, f, 0)
	g.Item.URL = "http://b/robots.txt"
	f.Requeue(g, 0, 50*ms)
	none(t, f, 10*ms)
	wake(t, f, 50*ms)
	if g := next(t, f, 50*ms); !g.Gate || g.Item.URL != "http://b/robots.txt" {
		t.Fatalf("handed out %+v, want the redirected gate", g)
	}
}

// A retired host hands back everything it had, queued or waiting out a
// backoff, and takes nothing more; its jobs in flight finish as usual.
func TestRetireHandsBackEverything(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 1})
	h, other := f.Host("http://a", "a"), f.Host("http://b", "b")
	push(f, h, 0, "a1", "a2", "a3")
	push(f, other, 0, "b1")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Requeue(j, 0, time.Second) // a1 waits out a backoff
	j = next(t, f, 0)            // a2 in flight
	f.Sent(j, 0)
	var handed []string
	f.Retire(h, func(it frontier.Item) { handed = append(handed, it.URL) })
	slices.Sort(handed)
	if !slices.Equal(handed, []string{"a1", "a3"}) {
		t.Fatalf("handed back %v, want a1 and a3", handed)
	}
	if f.Push(h, frontier.Item{URL: "a4"}, 0) {
		t.Fatal("a retired host took a URL")
	}
	if f.Requeue(j, 0, 0) {
		t.Fatal("a retired host took a retry back")
	}
	if b := next(t, f, 0); b.Item.URL != "b1" {
		t.Fatalf("handed out %s, want b1", b.Item.URL)
	}
	if f.Empty() || f.Running() != 1 {
		t.Fatalf("empty %v, running %d; want b1 running", f.Empty(), f.Running())
	}
	if _, ok := f.Wake(); ok {
		t.Fatal("Wake names a time, with nothing left to hand out")
	}
}

// Admit can say no: the job stays where it was, and comes next time.
func TestAdmitRefusalLeavesTheJob(t *testing.T) {
	yes := false
	f := frontier.New(frontier.Options{Admit: func(frontier.Job) bool { return yes }})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1")
	none(t, f, 0)
	if f.Queued() != 1 || f.Running() != 0 {
		t.Fatalf("queued %d running %d after a refusal", f.Queued(), f.Running())
	}
	yes = true
	if j := next(t, f, 0); j.Item.URL != "a1" {
		t.Fatalf("handed out %s", j.Item.URL)
	}
}

// Stop hands out nothing more; retries waiting out a backoff count as
// queued again; the frontier is empty once what runs is over.
func TestStop(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 2})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2", "a3")
	j := next(t, f, 0)
	f.Sent(j, 0)
	f.Requeue(j, 0, time.Second)
	running := next(t, f, 0)
	f.Stop(0)
	none(t, f, 2*time.Second)
	if f.Queued() != 2 || f.Delayed() != 0 || f.Empty() {
		t.Fatalf("queued %d delayed %d empty %v; want 2, 0, false", f.Queued(), f.Delayed(), f.Empty())
	}
	f.Finish(running, 0)
	f.Finish(running, 0) // twice: the second changes nothing
	if !f.Empty() || f.Running() != 0 {
		t.Fatalf("empty %v running %d after the last job finished", f.Empty(), f.Running())
	}
}

// Jitter adds up to half the spacing again, never less than the spacing.
func TestJitterOnlyAdds(t *testing.T) {
	f := frontier.New(frontier.Options{Delay: 100 * ms, Jitter: true})
	h := f.Host("http://a", "a")
	for i := range 201 {
		push(f, h, 0, fmt.Sprint(i))
	}
	now, longer := time.Duration(0), 0
	for range 200 {
		j := next(t, f, now)
		f.Sent(j, now)
		f.Finish(j, now)
		at, _ := f.Wake()
		gap := at - now
		if gap < 100*ms || gap > 150*ms {
			t.Fatalf("gap %v, want 100–150 ms", gap)
		}
		if gap > 100*ms {
			longer++
		}
		now = at
	}
	if longer < 150 {
		t.Fatalf("only %d of 200 gaps were jittered", longer)
	}
}

// A simulated crawl of 200 hosts on 40 servers, in 1 ms ticks: the
// frontier is polite (never more in flight than a server's limit, never
// two sends to a server closer than its spacing) and never idle (when it
// hands out nothing, no host with work could go).
func TestSimulatedCrawlIsPoliteAndNeverIdle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const gap = 20 * ms
	f := frontier.New(frontier.Options{PerHost: 3, Delay: gap})
	type flight struct {
		j      *frontier.Job
		sendAt time.Duration
		doneAt time.Duration
	}
	server := map[*frontier.Host]string{}
	for i := range 200 {
		auth := fmt.Sprintf("s%d", i%40)
		h := f.Host(fmt.Sprintf("http://h%d", i), auth)
		server[h] = auth
		for k := range 1 + rng.IntN(5) {
			f.Push(h, frontier.Item{URL: fmt.Sprintf("h%d/%d", i, k)}, 0)
		}
	}
	lastSend := map[string]time.Duration{}
	inFlight := map[string]int{}
	var flying []flight
	done := 0
	for now := time.Duration(0); now < 10*time.Second && !f.Empty(); now += ms {
		keep := flying[:0]
		for _, fl := range flying {
			switch {
			case fl.sendAt == now:
				s := server[fl.j.Host]
				if last, ok := lastSend[s]; ok && now-last < gap {
					t.Fatalf("%s: two sends %v apart, spacing %v", s, now-last, gap)
				}
				lastSend[s] = now
				f.Sent(fl.j, now)
				keep = append(keep, fl)
			case fl.doneAt == now:
				inFlight[server[fl.j.Host]]--
				f.Succeeded(fl.j)
				f.Finish(fl.j, now)
				done++
			default:
				keep = append(keep, fl)
			}
		}
		flying = keep
		for {
			j, ok := f.Next(now)
			if !ok {
				break
			}
			s := server[j.Host]
			if inFlight[s]++; inFlight[s] > 3 {
				t.Fatalf("%s: %d in flight, limit 3", s, inFlight[s])
			}
			send := now + time.Duration(rng.IntN(5))*ms // a connect takes a while
			flying = append(flying, flight{j: j, sendAt: send, doneAt: send + time.Duration(1+rng.IntN(30))*ms})
			if send == now {
				f.Sent(j, now)
				lastSend[s] = now
				flying[len(flying)-1].sendAt = -1
			}
		}
		if at, ok := f.Wake(); ok && at <= now {
			t.Fatalf("at %v: Wake says %v, yet Next handed out nothing", now, at)
		}
	}
	if !f.Empty() || done == 0 {
		t.Fatalf("after 10 s of simulated time: empty %v, %d done", f.Empty(), done)
	}
}

// A spacing raised after a request was sent (a Crawl-delay read from the
// robots.txt just fetched) counts from that request — also from one sent
// at loop time 0, the first moment of a crawl.
func TestSetDelayCountsFromTheLastSend(t *testing.T) {
	for _, sent := range []time.Duration{0, 10 * ms} {
		f := frontier.New(frontier.Options{})
		h := f.Host("http://a", "a")
		push(f, h, 0, "robots", "a1")
		j := next(t, f, 0)
		f.Sent(j, sent)
		f.Finish(j, 50*ms)
		f.SetDelay(h, 500*ms)
		wake(t, f, sent+500*ms)
		if f.Gap(h) != 500*ms {
			t.Fatalf("gap %v, want 500ms", f.Gap(h))
		}
	}
}

// A first refusal slows the server down; a retry refused again does not
// slow it again (the page is refused whatever the pace), though it holds
// the server again, twice as long: as long as its own next retry waits.
func TestRetryRefusedAgainIsNoCongestionEvent(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 4})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2")
	j := next(t, f, 0)
	f.Sent(j, 0)
	if !f.PushedBack(j, 0) {
		t.Fatal("a first 429 did not slow the server down")
	}
	gap := f.Gap(h)
	f.Requeue(j, 0, 0)
	j = next(t, f, time.Second)
	f.Sent(j, time.Second)
	if j.Item.URL != "a1" {
		t.Fatalf("handed out %s, want the retry of a1", j.Item.URL)
	}
	j.Item.Tries = 1 // as the crawler counts it
	if f.PushedBack(j, time.Second) {
		t.Fatal("a retry refused again slowed the server down again")
	}
	if f.Gap(h) != gap {
		t.Fatalf("gap %v after the retry's refusal, want %v unchanged", f.Gap(h), gap)
	}
	f.Finish(j, time.Second)
	wake(t, f, 3*time.Second)
}

// A 429 or a 503 holds the whole server for at least a second, whatever
// its spacing: as long as the refused request's retry waits, doubling
// with each of its tries, up to 30 seconds: 16 s at the fifth try, 30 s
// (not 32) at the sixth and after.
func TestARefusalHoldsTheServerASecondDoubling(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 4})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a0", "a1")
	at := time.Duration(0)
	s := time.Second
	for tries, hold := range []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s, 30 * s, 30 * s} {
		j := next(t, f, at)
		if j.Item.URL != "a0" {
			t.Fatalf("handed out %s, want a0's try %d", j.Item.URL, tries+1)
		}
		j.Item.Tries = int32(tries) // as the crawler counts them
		f.Sent(j, at)
		f.PushedBack(j, at)
		f.Requeue(j, at, at)
		none(t, f, at+hold-ms)
		wake(t, f, at+hold)
		at += hold
	}
}

// Without PerHost (or with one under 1), a server has one request in
// flight at a time, however well it answers: concurrency is earned only
// up to what the options allow, and the default allows one.
func TestPerHostDefaultsToOne(t *testing.T) {
	for _, opts := range []frontier.Options{{}, {PerHost: -2}} {
		f := frontier.New(opts)
		h := f.Host("http://a", "a")
		push(f, h, 0, "a0", "a1", "a2", "a3")
		for i := range 3 {
			now := time.Duration(i) * time.Second
			j := next(t, f, now)
			f.Sent(j, now)
			f.Succeeded(j)
			none(t, f, now)
			if f.Limit(h) != 1 || f.InFlight(h) != 1 {
				t.Fatalf("PerHost %d, after %d successes: limit %d, %d in flight; want 1 and 1",
					opts.PerHost, i+1, f.Limit(h), f.InFlight(h))
			}
			f.Finish(j, now)
		}
	}
}

// Forget drops a host's queue and its retries waiting out a backoff,
// tells of each, and leaves the host able to take URLs again; its jobs in
// flight go on.
func TestForgetTellsWhatItDrops(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 2})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a0", "a1", "a2", "a3")
	f.Requeue(next(t, f, 0), 0, time.Second) // a0 waits out a backoff
	running := next(t, f, 0)
	var dropped []string
	f.Forget(h, func(it frontier.Item) { dropped = append(dropped, it.URL) })
	if !slices.Equal(dropped, []string{"a2", "a3", "a0"}) {
		t.Fatalf("Forget told of %v, want the queue, then the retry", dropped)
	}
	if f.Queued() != 0 || f.Delayed() != 0 || f.Running() != 1 {
		t.Fatalf("after Forget: %d queued, %d delayed, %d running; want 0, 0, 1", f.Queued(), f.Delayed(), f.Running())
	}
	f.Finish(running, 0)
	push(f, h, 0, "a4")
	if j := next(t, f, 0); j.Item.URL != "a4" {
		t.Fatalf("after Forget, handed out %s", j.Item.URL)
	}
}

// A Retry-After heard while another request to the same server is handed
// out and not yet sent holds the server all the same: sending that request
// moves the next start to its spacing from the send or leaves it at the
// hold, whichever is later, and never cuts the hold short. Nor does a
// request that ends without being sent.
func TestHoldOutlastsARequestInFlightAtTheTime(t *testing.T) {
	f := frontier.New(frontier.Options{PerHost: 2, Delay: 10 * ms})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a0", "a1", "a2", "a3")
	j0 := next(t, f, 0)
	f.Sent(j0, 0)
	f.Succeeded(j0) // two may be in flight from now on
	j1 := next(t, f, 10*ms)
	f.HoldUntil(h, 5*time.Second) // j0's answer: 429, Retry-After: 5
	f.Finish(j0, 20*ms)
	f.Sent(j1, 30*ms) // j1 leaves while the server is held
	none(t, f, 5*time.Second-1)
	wake(t, f, 5*time.Second)
	f.Finish(j1, 40*ms)

	j2 := next(t, f, 5*time.Second)
	f.HoldUntil(h, 9*time.Second)
	f.Finish(j2, 6*time.Second) // its connection failed: never sent
	none(t, f, 9*time.Second-1)
	wake(t, f, 9*time.Second)
}

// Admit is asked of a gate job too: a refused robots.txt stays the host's
// next job, and is handed out once Admit says yes.
func TestAdmitRefusalLeavesTheGate(t *testing.T) {
	yes := false
	var asked []frontier.Job
	f := frontier.New(frontier.Options{Admit: func(j frontier.Job) bool {
		asked = append(asked, j)
		return yes
	}})
	h := f.Host("http://a", "a")
	f.Gate(h, frontier.Item{URL: "http://a/robots.txt"})
	push(f, h, 0, "a1")
	none(t, f, 0)
	if len(asked) != 1 || !asked[0].Gate {
		t.Fatalf("Admit asked of %+v, want the gate once", asked)
	}
	if f.Queued() != 1 || f.Running() != 0 {
		t.Fatalf("queued %d running %d after a refusal", f.Queued(), f.Running())
	}
	yes = true
	if g := next(t, f, 0); !g.Gate || g.Item.URL != "http://a/robots.txt" {
		t.Fatalf("handed out %+v, want the gate", g)
	}
}

// A spacing set on a server no request was ever sent to holds nothing
// back: there is no last request for it to count from, and the first
// request may go at once.
func TestSetDelayBeforeAnySendHoldsNothing(t *testing.T) {
	f := frontier.New(frontier.Options{})
	h := f.Host("http://a", "a")
	push(f, h, 0, "a1", "a2")
	f.SetDelay(h, 500*ms)
	wake(t, f, 0)
	j := next(t, f, 0)
	if j.Item.URL != "a1" {
		t.Fatalf("handed out %s, want a1", j.Item.URL)
	}
	f.Sent(j, 10*ms)
	f.Finish(j, 20*ms)
	wake(t, f, 510*ms) // from the first send on, the spacing counts
}

// Jitter on a spacing of a nanosecond or two still adds only up to half of
// it: the random draw's bound is half the gap plus one, never zero or
// less (rand panics on those), so a 2 ns spacing comes out as 2 or 3 ns.
func TestJitterOnATinySpacing(t *testing.T) {
	for _, delay := range []time.Duration{1, 2} {
		f := frontier.New(frontier.Options{Delay: delay, Jitter: true})
		h := f.Host("http://a", "a")
		for i := range 61 { // one more than is taken: Wake always has one to name
			push(f, h, 0, fmt.Sprint(i))
		}
		seen := map[time.Duration]bool{}
		now := time.Duration(0)
		for range 60 {
			j := next(t, f, now)
			f.Sent(j, now)
			f.Finish(j, now)
			at, _ := f.Wake()
			seen[at-now] = true
			now = at
		}
		want := map[time.Duration]bool{1: true}
		if delay == 2 {
			want = map[time.Duration]bool{2: true, 3: true}
		}
		if len(seen) != len(want) || !seen[delay] || !seen[delay+delay/2] {
			t.Errorf("delay %v: gaps %v, want %v", delay, seen, want)
		}
	}
}
