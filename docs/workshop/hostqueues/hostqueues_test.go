//go:build workshop

package hostqueues_test

import (
	"fmt"
	"testing"
	"time"

	"loopkit/docs/workshop/hostqueues"
)

// The frontier is pure: the tests pass the time in, so nothing here
// sleeps, and every expectation is exact.

func next(t *testing.T, f *hostqueues.Frontier, now time.Duration, want string) {
	t.Helper()
	j, ok := f.Next(now)
	switch {
	case want == "" && ok:
		t.Fatalf("Next(%d) handed out %s; want nothing", now, j.URL)
	case want != "" && !ok:
		w, wok := f.Wake()
		t.Fatalf("Next(%d) handed out nothing (Wake %d, %v); want %s", now, w, wok, want)
	case want != "" && j.URL != want:
		t.Fatalf("Next(%d) handed out %s; want %s", now, j.URL, want)
	case want != "" && j.Host != want[:1]:
		t.Fatalf("Next(%d) handed out %s as host %q's; want host %q", now, j.URL, j.Host, want[:1])
	}
}

func wake(t *testing.T, f *hostqueues.Frontier, want time.Duration, wantOK bool) {
	t.Helper()
	if w, ok := f.Wake(); w != want || ok != wantOK {
		t.Fatalf("Wake = %d, %v; want %d, %v", w, ok, want, wantOK)
	}
}

func push(f *hostqueues.Frontier, urls ...string) {
	for _, u := range urls {
		f.Push(u[:1], u) // the host is the URL's first letter: "a1" is host a's
	}
}

func TestOneHostsStartsAreSpaced(t *testing.T) {
	f := hostqueues.New(10, 8)
	push(f, "a1", "a2", "a3")
	next(t, f, 0, "a1")
	next(t, f, 5, "")
	wake(t, f, 10, true)
	next(t, f, 10, "a2")
	next(t, f, 19, "")
	next(t, f, 25, "a3") // late is fine; the gap counts from this start
	next(t, f, 100, "")
	wake(t, f, 0, false)
}

// The point of a host-aware frontier: a host that must wait holds up no
// other host.
func TestAHostThatMustWaitHoldsUpNoOther(t *testing.T) {
	f := hostqueues.New(10, 8)
	push(f, "a1", "a2", "a3", "b1", "c1")
	next(t, f, 0, "a1")
	next(t, f, 0, "b1")
	next(t, f, 0, "c1")
	next(t, f, 0, "")
	wake(t, f, 10, true)
	next(t, f, 10, "a2")
}

// Of the hosts whose time has come, the one that has waited longest goes
// first; between equal times, the host seen first.
func TestTheHostWhoseTimeCameFirstGoesFirst(t *testing.T) {
	f := hostqueues.New(10, 8)
	push(f, "b1", "b2", "a1", "a2")
	next(t, f, 0, "b1") // b and a both at 0: b was seen first
	next(t, f, 3, "a1")
	// b may start again at 10, a at 13.
	next(t, f, 20, "b2")
	next(t, f, 20, "a2")

	// Seen first is not enough: c's time came at 20, d's at 0.
	g := hostqueues.New(10, 8)
	g.HoldUntil("c", 20)
	push(g, "c1", "d1")
	next(t, g, 25, "d1")
	next(t, g, 25, "c1")
}

// Many hosts ready at the same moment go in the order they were first
// seen — not in the order a map happens to list them, which Go changes
// from one range to the next.
func TestManyTiesGoInTheOrderSeen(t *testing.T) {
	f := hostqueues.New(10, 8)
	for i := range 20 {
		push(f, fmt.Sprintf("%c1", 'a'+i), fmt.Sprintf("%c2", 'a'+i))
	}
	for round := 1; round <= 2; round++ {
		for i := range 20 {
			next(t, f, time.Duration(10*(round-1)), fmt.Sprintf("%c%d", 'a'+i, round))
		}
	}
}

// The gap counts from when a request really started. A host asked late
// (its time came at 10, it was asked at 25) may start again at 35, not at
// 20: the gap is the server's rest between two requests.
func TestTheGapCountsFromTheActualStart(t *testing.T) {
	f := hostqueues.New(10, 8)
	push(f, "a1", "a2", "a3")
	next(t, f, 0, "a1")
	next(t, f, 25, "a2")
	next(t, f, 30, "")
	wake(t, f, 35, true)
	next(t, f, 35, "a3")
}

// A tie goes to the host seen first, for good: a host that ran dry and
// comes back with new URLs keeps its place, whoever was pushed since.
func TestATieGoesToTheHostSeenFirstForGood(t *testing.T) {
	f := hostqueues.New(10, 8)
	push(f, "b1", "a1")
	next(t, f, 0, "b1") // b, then a: both ready at 0, b seen first
	next(t, f, 0, "a1")
	f.Done("b")
	f.Done("a")
	push(f, "a2", "b2")  // both ran dry; a comes back first
	next(t, f, 10, "b2") // both ready at 10: b was still seen first
	next(t, f, 10, "a2")
	// The same for a host seen first by HoldUntil.
	g := hostqueues.New(10, 8)
	g.HoldUntil("d", 5)
	push(g, "c1")
	g.HoldUntil("c", 5)
	push(g, "d1")
	next(t, g, 5, "d1")
	next(t, g, 5, "c1")
}

func TestAtMostPerHostInFlight(t *testing.T) {
	f := hostqueues.New(0, 2)
	push(f, "a1", "a2", "a3", "a4")
	next(t, f, 0, "a1")
	next(t, f, 0, "a2")
	next(t, f, 0, "")
	wake(t, f, 0, false) // no time will help: only a Done will
	f.Done("a")
	next(t, f, 0, "a3")
	next(t, f, 0, "")
	f.Done("a")
	f.Done("a")
	next(t, f, 0, "a4")
}

func TestHoldUntil(t *testing.T) {
	f := hostqueues.New(10, 8)
	push(f, "a1", "a2")
	f.HoldUntil("a", 100) // a Retry-After
	next(t, f, 50, "")
	wake(t, f, 100, true)
	next(t, f, 100, "a1")
	f.HoldUntil("a", 5) // earlier than its own spacing: changes nothing
	next(t, f, 105, "")
	next(t, f, 110, "a2")
	// A host held before it has any URL keeps the hold.
	f.HoldUntil("b", 300)
	push(f, "b1")
	next(t, f, 200, "")
	next(t, f, 300, "b1")
}

// A host whose queue ran dry comes back with its spacing intact: a new URL
// does not reset the clock — nor does its last job finishing in between.
func TestSpacingSurvivesAnEmptyQueue(t *testing.T) {
	f := hostqueues.New(10, 8)
	push(f, "a1")
	next(t, f, 0, "a1")
	wake(t, f, 0, false)
	push(f, "a2")
	next(t, f, 3, "")
	wake(t, f, 10, true)
	next(t, f, 10, "a2")
	f.Done("a")
	f.Done("a") // nothing in flight, nothing queued: a is idle, not gone
	push(f, "a3")
	next(t, f, 15, "")
	wake(t, f, 20, true)
	next(t, f, 20, "a3")
}

// A simulated crawl: 200 hosts with 5 URLs each, requests lasting 3 ticks.
// At every tick the test asks for jobs until Next says no, and checks,
// against its own model, that the frontier is polite (spacing, limit,
// each host's order), loses and repeats nothing, and is never idle while
// some host may go.
func TestASimulatedCrawl(t *testing.T) {
	const hosts, each, gap, perHost, lasts = 200, 5, 7, 2, 3
	f := hostqueues.New(gap, perHost)
	type model struct {
		queue     []string
		inFlight  int
		nextStart time.Duration
	}
	m := map[string]*model{}
	for i := range hosts {
		name := fmt.Sprintf("h%03d", i)
		m[name] = &model{}
		for k := range each {
			url := fmt.Sprintf("%s/%d", name, k)
			f.Push(name, url)
			m[name].queue = append(m[name].queue, url)
		}
	}
	finishes := map[time.Duration][]string{}
	handed := 0
	for now := time.Duration(0); handed < hosts*each; now++ {
		if now > 1000 {
			t.Fatalf("at tick %d only %d of %d URLs were handed out", now, handed, hosts*each)
		}
		for _, h := range finishes[now] {
			f.Done(h)
			m[h].inFlight--
		}
		for {
			j, ok := f.Next(now)
			if !ok {
				break
			}
			h := m[j.Host]
			switch {
			case h == nil || len(h.queue) == 0 || h.queue[0] != j.URL:
				t.Fatalf("tick %d: handed out %s of host %q, which is not that host's next URL", now, j.URL, j.Host)
			case h.nextStart > now:
				t.Fatalf("tick %d: host %s started again before %d: spacing is %d", now, j.Host, h.nextStart, gap)
			case h.inFlight >= perHost:
				t.Fatalf("tick %d: host %s already had %d in flight", now, j.Host, h.inFlight)
			}
			h.queue, h.inFlight, h.nextStart = h.queue[1:], h.inFlight+1, now+gap
			finishes[now+lasts] = append(finishes[now+lasts], j.Host)
			handed++
		}
		earliest, some := time.Duration(-1), false
		for name, h := range m {
			if len(h.queue) > 0 && h.inFlight < perHost {
				if h.nextStart <= now {
					t.Fatalf("tick %d: Next said no, but host %s may start %s", now, name, h.queue[0])
				}
				if !some || h.nextStart < earliest {
					earliest, some = h.nextStart, true
				}
			}
		}
		if w, ok := f.Wake(); ok != some || some && w != earliest {
			t.Fatalf("tick %d: Wake = %d, %v; want %d, %v", now, w, ok, earliest, some)
		}
	}
}
