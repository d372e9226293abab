//go:build workshop

package frontier

import (
	"fmt"
	"testing"
	"time"
)

// These tests are part 1's, with one more check after every call: that
// ready is a heap of exactly the hosts with work and room. They live in
// the package, so that they can look at ready.

// checkHeap fails the test unless ready holds exactly the hosts that have
// work and room, each at its index, in heap order: no host before its
// parent by (next start, seq).
func checkHeap(t *testing.T, f *Frontier, after string) {
	t.Helper()
	for _, h := range f.hosts {
		want := len(h.queue) > 0 && h.inFlight < f.perHost
		in := h.index >= 0 && h.index < len(f.ready) && f.ready[h.index] == h
		switch {
		case want && !in:
			t.Fatalf("after %s: host %s has work and room (%d queued, %d in flight), but is not in ready at its index (%d)",
				after, h.name, len(h.queue), h.inFlight, h.index)
		case !want && in:
			t.Fatalf("after %s: host %s is in ready, with %d queued and %d in flight: only hosts with work and room belong there",
				after, h.name, len(h.queue), h.inFlight)
		}
	}
	for i, h := range f.ready {
		if h.index != i {
			t.Fatalf("after %s: ready[%d] is host %s, whose index says %d", after, i, h.name, h.index)
		}
		if p := f.ready[(i-1)/2]; i > 0 && (h.nextStart < p.nextStart || h.nextStart == p.nextStart && h.seq < p.seq) {
			t.Fatalf("after %s: ready is not a heap: host %s (next start %d, seq %d) is below host %s (next start %d, seq %d)",
				after, h.name, h.nextStart, h.seq, p.name, p.nextStart, p.seq)
		}
	}
}

func next(t *testing.T, f *Frontier, now time.Duration, want string) {
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
	checkHeap(t, f, fmt.Sprintf("Next(%d)", now))
}

func wake(t *testing.T, f *Frontier, want time.Duration, wantOK bool) {
	t.Helper()
	if w, ok := f.Wake(); w != want || ok != wantOK {
		t.Fatalf("Wake = %d, %v; want %d, %v", w, ok, want, wantOK)
	}
}

func push(t *testing.T, f *Frontier, urls ...string) {
	t.Helper()
	for _, u := range urls {
		f.Push(u[:1], u) // the host is the URL's first letter: "a1" is host a's
		checkHeap(t, f, "Push "+u)
	}
}

func done(t *testing.T, f *Frontier, host string) {
	t.Helper()
	f.Done(host)
	checkHeap(t, f, "Done "+host)
}

func hold(t *testing.T, f *Frontier, host string, until time.Duration) {
	t.Helper()
	f.HoldUntil(host, until)
	checkHeap(t, f, fmt.Sprintf("HoldUntil(%s, %d)", host, until))
}

func TestOneHostsStartsAreSpaced(t *testing.T) {
	f := New(10, 8)
	push(t, f, "a1", "a2", "a3")
	next(t, f, 0, "a1")
	next(t, f, 5, "")
	wake(t, f, 10, true)
	next(t, f, 10, "a2")
	next(t, f, 19, "")
	next(t, f, 25, "a3") // late is fine; the gap counts from this start
	next(t, f, 100, "")
	wake(t, f, 0, false)
}

func TestAHostThatMustWaitHoldsUpNoOther(t *testing.T) {
	f := New(10, 8)
	push(t, f, "a1", "a2", "a3", "b1", "c1")
	next(t, f, 0, "a1")
	next(t, f, 0, "b1")
	next(t, f, 0, "c1")
	next(t, f, 0, "")
	wake(t, f, 10, true)
	next(t, f, 10, "a2")
}

// A hold moves a host's time: it must move the host down the heap too, or
// the held host stays on top, and every other host waits behind it.
func TestAHeldHostHoldsUpNoOther(t *testing.T) {
	f := New(10, 8)
	push(t, f, "a1", "b1", "c1")
	hold(t, f, "a", 100)
	next(t, f, 0, "b1")
	next(t, f, 0, "c1")
	next(t, f, 0, "")
	wake(t, f, 100, true)
	next(t, f, 100, "a1")
}

func TestTheHostWhoseTimeCameFirstGoesFirst(t *testing.T) {
	f := New(10, 8)
	push(t, f, "b1", "b2", "a1", "a2")
	next(t, f, 0, "b1") // b and a both at 0: b was seen first
	next(t, f, 3, "a1")
	next(t, f, 20, "b2") // b may start again at 10, a at 13
	next(t, f, 20, "a2")
}

// Many hosts ready at the same moment go in the order they were first
// seen. container/heap is not stable: without a tie-break, its swaps
// decide.
func TestManyTiesGoInTheOrderSeen(t *testing.T) {
	f := New(10, 8)
	for i := range 20 {
		push(t, f, fmt.Sprintf("%c1", 'a'+i), fmt.Sprintf("%c2", 'a'+i))
	}
	for round := 1; round <= 2; round++ {
		for i := range 20 {
			next(t, f, time.Duration(10*(round-1)), fmt.Sprintf("%c%d", 'a'+i, round))
		}
	}
}

func TestAtMostPerHostInFlight(t *testing.T) {
	f := New(0, 2)
	push(t, f, "a1", "a2", "a3", "a4")
	next(t, f, 0, "a1")
	next(t, f, 0, "a2")
	next(t, f, 0, "")
	wake(t, f, 0, false) // no time will help: only a Done will
	done(t, f, "a")
	next(t, f, 0, "a3")
	next(t, f, 0, "")
	done(t, f, "a")
	done(t, f, "a")
	next(t, f, 0, "a4")
}

func TestHoldUntil(t *testing.T) {
	f := New(10, 8)
	push(t, f, "a1", "a2")
	hold(t, f, "a", 100) // a Retry-After
	next(t, f, 50, "")
	wake(t, f, 100, true)
	next(t, f, 100, "a1")
	hold(t, f, "a", 5) // earlier than its own spacing: changes nothing
	next(t, f, 105, "")
	next(t, f, 110, "a2")
	hold(t, f, "b", 300) // a host held before it has any URL keeps the hold
	push(t, f, "b1")
	next(t, f, 200, "")
	next(t, f, 300, "b1")
}

func TestSpacingSurvivesAnEmptyQueue(t *testing.T) {
	f := New(10, 8)
	push(t, f, "a1")
	next(t, f, 0, "a1")
	wake(t, f, 0, false)
	push(t, f, "a2")
	next(t, f, 3, "")
	wake(t, f, 10, true)
	next(t, f, 10, "a2")
	done(t, f, "a")
	done(t, f, "a")
	push(t, f, "a3")
	next(t, f, 15, "")
	next(t, f, 20, "a3")
}

// Part 1's simulated crawl — 200 hosts of 5 URLs, requests lasting 3
// ticks — with the heap checked after every call: politeness, nothing lost
// or repeated, never idle while some host may go, and ready always a heap
// of exactly the hosts with work and room.
func TestASimulatedCrawl(t *testing.T) {
	const hosts, each, gap, perHost, lasts = 200, 5, 7, 2, 3
	f := New(gap, perHost)
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
	checkHeap(t, f, "the pushes")
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
		checkHeap(t, f, fmt.Sprintf("the Dones of tick %d", now))
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
		checkHeap(t, f, fmt.Sprintf("the Nexts of tick %d", now))
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
