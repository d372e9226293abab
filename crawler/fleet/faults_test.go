package fleet_test

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/fleet"
	"loopkit/internal/e2e"
	"loopkit/internal/faultproxy"
	"loopkit/internal/redistest"
	"loopkit/internal/wirelog"
)

// The fleet against the faults of the network between it and Redis,
// played by a proxy (internal/faultproxy) in front of a real redis-server.

// union is the distinct URLs the members recorded, sorted.
func union(ms ...*member) []string {
	var all []string
	for _, m := range ms {
		all = append(all, m.urls()...)
	}
	return slices.Compact(slices.Sorted(slices.Values(all)))
}

// waitRecords waits until the members recorded n URLs between them.
func waitRecords(t *testing.T, n int, ms ...*member) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := 0
		for _, m := range ms {
			got += len(m.urls())
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fleet recorded %d URLs in 20 s, want %d before the fault", got, n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// The reply to any of the fleet's scripts may be lost after Redis ran
// it: the connection drops at any byte of the reply. Each script's first
// four replies are cut at four offsets (before their first byte, after
// it, a few bytes in, one byte short of the end), and the crawl still
// ends, with every URL recorded. The second process joins once the first
// holds every shard, so that shards are given back (release) too.
func TestFleetLosesNoURLToAReplyCutShort(t *testing.T) {
	e2e.Only(t, "cuts each script's reply and waits out a lease, about 12 s")
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range fleet.Scripts {
			if !yield(name) {
				return
			}
		}
	})
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			rds := redistest.Start(t, redistest.Options{})
			web := newHostsWeb(t, 4, 24, 40*time.Millisecond)
			cut := func(at int64) *faultproxy.Fault { return &faultproxy.Fault{At: at, Action: faultproxy.Cut} }
			faults := []*faultproxy.Fault{cut(0), cut(1), cut(3), cut(-1)}
			if name == "release" {
				// A process releases its shards when it hands them over
				// and when it ends: on a busy machine, as few as three
				// times in the whole crawl.
				faults = []*faultproxy.Fault{cut(0), cut(1), cut(-1)}
			}
			rule := &faultproxy.Replies{Match: faultproxy.Script(fleet.Scripts[name].SHA()), Faults: faults}
			p := faultproxy.New(t, rds.Addr(), rule)
			cfg := crawler.Config{MaxTasks: 4, PerHost: 1} // robots.txt on: it is kept with its shard too
			through := func(name string) memberOptions {
				return memberOptions{redis: "redis://" + p.Addr() + "/0", id: "cut", roots: web.roots, cfg: cfg, name: name, lease: 600 * time.Millisecond}
			}
			a := start(t, through("a"))
			waitRecords(t, 3, a)
			b := start(t, through("b"))
			for _, m := range []*member{a, b} {
				if err := m.end(t, 30*time.Second); err != nil {
					t.Fatal(err)
				}
			}
			fired := rule.Fired()
			if len(fired) != len(rule.Faults) {
				t.Fatalf("%d of %s's replies cut (%s), want %d: the crawl made too few calls to prove anything", len(fired), name, firedAt(fired), len(rule.Faults))
			}
			if got := union(a, b); !slices.Equal(got, web.want) {
				t.Fatalf("with %d replies of %s cut, the fleet recorded %d distinct URLs; the site has %d", len(fired), name, len(got), len(web.want))
			}
			t.Logf("%s's replies cut at %s; %d URLs recorded by a, %d by b", name, firedAt(fired), len(a.urls()), len(b.urls()))
		})
	}
}

func firedAt(fs []faultproxy.ReplyFired) string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%d/%d", f.At, f.Len))
	}
	return strings.Join(out, " ")
}

// A Redis that comes back empty (no persistence, or a failover to an
// empty replica) has lost the crawl: every process stops with an error
// that says so, never a normal end with pages missing.
func TestFleetStopsWhenRedisComesBackEmpty(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 6, 25, 10*time.Millisecond)
	cfg := crawler.Config{MaxTasks: 6, PerHost: 2, NoRobots: true}
	ms := []*member{startMember(t, rds, "vanish", web.roots, cfg), startMember(t, rds, "vanish", web.roots, cfg)}
	waitRecords(t, 20, ms...)
	rds.Kill()
	rds.Restart() // empty: no append-only file
	for _, m := range ms {
		err := m.end(t, 20*time.Second)
		if err == nil {
			t.Fatalf("the crawl vanished from Redis and a process ended normally, with %d of the site's %d URLs recorded", len(union(ms...)), len(web.want))
		}
		if !strings.Contains(err.Error(), "vanish") || !strings.Contains(err.Error(), "no longer in Redis") {
			t.Fatalf("the crawl vanished, and a process said: %v", err)
		}
		t.Log(err)
	}
}

// A Redis out of memory refuses writes: every process stops with the
// error, within seconds, and loses nothing: once Redis has room again, a
// process run again ends the crawl with every URL recorded.
func TestFleetStopsOnRedisOutOfMemoryAndLosesNothing(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 6, 25, 10*time.Millisecond)
	cfg := crawler.Config{MaxTasks: 6, PerHost: 2, NoRobots: true}
	ms := []*member{startMember(t, rds, "oom", web.roots, cfg), startMember(t, rds, "oom", web.roots, cfg)}
	waitRecords(t, 20, ms...)
	if _, err := rds.CLI("CONFIG", "SET", "maxmemory", "1"); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		err := m.end(t, 20*time.Second)
		if err == nil || !strings.Contains(err.Error(), "OOM") {
			t.Fatalf("Redis out of memory, and a process ended with %v", err)
		}
		t.Log(err)
	}
	if _, err := rds.CLI("CONFIG", "SET", "maxmemory", "0"); err != nil {
		t.Fatal(err)
	}
	again := startMember(t, rds, "oom", nil, cfg)
	if err := again.end(t, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := union(append(ms, again)...); !slices.Equal(got, web.want) {
		t.Fatalf("after Redis ran out of memory and got it back, the fleet recorded %d distinct URLs; the site has %d", len(got), len(web.want))
	}
}

// A process cut off from Redis (a network partition: nothing passes, and
// nothing is closed) stops working its shards when its lease runs out,
// by its own clock: the server sees nothing from it after that, and the
// process that takes its hosts over never has a request in flight on
// one of them while the cut-off one still had.
func TestFleetProcessCutOffFromRedisStopsAtItsLease(t *testing.T) {
	e2e.Only(t, "waits out leases while cut off from Redis, about 11 s")
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 2, 30, 200*time.Millisecond)
	cfg := crawler.Config{MaxTasks: 8, PerHost: 1, NoRobots: true}
	const lease = time.Second
	p := faultproxy.New(t, rds.Addr(), nil)
	// A window of 64: when it is cut off, a has more work queued than a
	// lease's worth, which it must not do.
	a := start(t, memberOptions{redis: "redis://" + p.Addr() + "/0", id: "partition", roots: web.roots, cfg: cfg, name: "a", lease: lease, window: 64})
	waitRecords(t, 3, a)
	p.Blackhole()
	cut := time.Now()
	b := start(t, memberOptions{redis: rds.URL(), id: "partition", roots: web.roots, cfg: cfg, name: "b", lease: lease})
	if err := b.end(t, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	p.Restore() // a finds the crawl over
	if err := a.end(t, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := union(a, b); !slices.Equal(got, web.want) {
		t.Fatalf("the fleet recorded %d distinct URLs; the site has %d", len(got), len(web.want))
	}
	var late []string
	for _, h := range []string{"h0", "h1"} {
		var lastA, firstB time.Time
		for _, ar := range web.srv.Arrivals(h) {
			switch {
			case ar.At.Before(cut):
			case strings.Contains(ar.Agent, "(a)"):
				lastA = ar.At
				if ar.At.After(cut.Add(lease)) {
					late = append(late, fmt.Sprintf("%s%s at cut+%v", h, ar.Path, ar.At.Sub(cut).Round(time.Millisecond)))
				}
			case firstB.IsZero():
				firstB = ar.At
			}
		}
		if !lastA.IsZero() && !firstB.IsZero() && !lastA.Add(200*time.Millisecond).Before(firstB) {
			t.Errorf("%s: the cut-off process's last request came at cut+%v, the next holder's first at cut+%v: both in flight at once",
				h, lastA.Sub(cut).Round(time.Millisecond), firstB.Sub(cut).Round(time.Millisecond))
		}
	}
	if len(late) > 0 {
		t.Fatalf("cut off from Redis, the process sent %d requests after its lease of %v ran out: %v", len(late), lease, late)
	}
}

var _ = wirelog.Arrival{}

// A Redis that restarts from its append-only file (fsync every second),
// or a replica that takes over, may have lost the last writes it
// answered: a page settled is back in its shard's processing set, counted
// as pending. Its holder, which believes it settled, reads each shard back
// after a reconnect, and fetches again what it holds there and does not
// know of; so the crawl ends. (Here the lost settle is put back by hand.)
func TestFleetRefetchesWhatRedisForgotItSettled(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 2, 30, 60*time.Millisecond)
	p := faultproxy.New(t, rds.Addr(), nil)
	cfg := crawler.Config{MaxTasks: 4, PerHost: 1, NoRobots: true}
	m := start(t, memberOptions{redis: "redis://" + p.Addr() + "/0", id: "forgot", roots: web.roots, cfg: cfg, name: "a"})
	waitRecords(t, 6, m)
	u := m.urls()[0] // settled by now: its page was recorded well before five others
	host, _, _ := strings.Cut(strings.TrimPrefix(u, "http://"), "/")
	h := fnv.New32a()
	h.Write([]byte(host))
	shard := h.Sum32() % 8
	for _, cmd := range [][]string{
		{"SADD", fmt.Sprintf("loopkit:forgot:p:%d", shard), "1 10 " + u},
		{"INCR", "loopkit:forgot:pending"},
	} {
		if _, err := rds.CLI(cmd...); err != nil {
			t.Fatal(err)
		}
	}
	p.CutAll() // the reconnect after the restart
	if err := m.end(t, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	path := strings.TrimPrefix(u, "http://"+host)
	name := ""
	for i, root := range web.roots {
		if strings.HasPrefix(u, root) {
			name = fmt.Sprint("h", i)
		}
	}
	if n := web.srv.Count(name, path); n != 2 {
		t.Fatalf("%s fetched %d times, want twice: once, and again once Redis had forgotten it", u, n)
	}
}

// A process interrupted while Redis is slow (paused, here, for 400 ms)
// waits at its end for Redis to take what it settled, rather than give up
// on it: the fleet's tally counts every page the process recorded, and
// the operator is not told that anything was left behind.
func TestAnInterruptedProcessWaitsForASlowRedisToTakeItsPages(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 4, 20, 200*time.Millisecond) // pages in flight when the interrupt comes
	m := startMember(t, rds, "slow", web.roots, crawler.Config{MaxTasks: 4, PerHost: 1, NoRobots: true})
	waitRecords(t, 6, m)
	rds.Pause()
	m.l.CallSoonThreadsafe(func() { m.c.Interrupt() }) // on the loop, where m.c was set
	time.Sleep(400 * time.Millisecond)
	rds.Resume()
	if err := m.end(t, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	out, err := rds.CLI("HGET", "loopkit:slow:tally", "ok")
	if ok, _ := strconv.Atoi(strings.TrimSpace(out)); err != nil || ok != len(m.urls()) {
		t.Errorf("the fleet's tally counts %q pages done (%v); the process recorded %d", out, err, len(m.urls()))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, n := range m.notices {
		if strings.Contains(n, "did not take everything") {
			t.Errorf("the process gave up on Redis at its end: %q", n)
		}
	}
}
