package fleet_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/internal/redistest"
	"loopkit/internal/wirelog"
)

// Hosts change hands between processes: when one joins (the others give
// shards back), when one dies, when one freezes. Each test judges the
// handover at the server: who sent what, when.

// agentOf is the member name in an arrival's User-Agent: "a" of
// "loopkit/0.1 (a)".
func agentOf(a wirelog.Arrival) string {
	_, name, _ := strings.Cut(a.Agent, "(")
	return strings.TrimSuffix(name, ")")
}

// A process that joins a crawl in the middle takes shards the others
// give back, and a shard given back is drained, not cut short: its
// requests on the wire finish where they started. So no URL reaches the
// server twice, and no host ever has more than --per_host requests in
// flight, whichever processes send them. (Given back at once, a shard's
// requests were cancelled: the server, still answering them, saw the
// next process's requests on top, and the URLs a second time.)
func TestFleetDrainsAShardItGivesBack(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 16, 12, 300*time.Millisecond)
	cfg := crawler.Config{MaxTasks: 32, PerHost: 2, NoRobots: true}
	a := start(t, memberOptions{redis: rds.URL(), id: "join", roots: web.roots, cfg: cfg, name: "a"})
	waitRecords(t, 20, a)
	b := start(t, memberOptions{redis: rds.URL(), id: "join", roots: web.roots, cfg: cfg, name: "b"})
	for _, m := range []*member{a, b} {
		if err := m.end(t, 60*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if got := union(a, b); !slices.Equal(got, web.want) {
		t.Fatalf("recorded %d distinct URLs; the site has %d", len(got), len(web.want))
	}
	handed := map[string]bool{}
	for _, x := range web.srv.Arrivals() {
		if n := web.srv.Count(x.Host, x.Path); n != 1 {
			t.Errorf("%s%s reached the server %d times", x.Host, x.Path, n)
		}
		if agentOf(x) == "b" {
			handed[x.Host] = true
		}
	}
	web.mu.Lock()
	defer web.mu.Unlock()
	for host, p := range web.peak {
		if p > 2 {
			t.Errorf("%s saw %d requests at once, --per_host 2", host, p)
		}
	}
	if len(handed) == 0 {
		t.Fatal("no host changed hands: the test proved nothing")
	}
	// The report's counts: a gave shards back, none was lost, and each
	// page was settled once, by one of the two.
	if sa, sb := a.f.Stats, b.f.Stats; sa.GivenBack == 0 || sa.LostLease+sb.LostLease != 0 || sa.Settled+sb.Settled != len(web.want) {
		t.Errorf("a gave back %d shards, lost %d, settled %d; b lost %d, settled %d: want some given back, none lost, %d settled in all",
			sa.GivenBack, sa.LostLease, sa.Settled, sb.LostLease, sb.Settled, len(web.want))
	}
	t.Logf("%d hosts changed hands; a recorded %d, b %d", len(handed), len(a.urls()), len(b.urls()))
}

// handover runs a's part of a one-host crawl (until a is given, as
// stop, to stop somehow), then b's, and returns a's last request to host
// "h" and b's first after it, as the server saw them.
func handover(t *testing.T, srv *wirelog.Server, a memberOptions, stop func(*member), b memberOptions) (last, first wirelog.Arrival) {
	t.Helper()
	ma := start(t, a)
	waitRecords(t, 1, ma)
	stop(ma)
	mb := start(t, b)
	if err := mb.end(t, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	for _, x := range srv.Arrivals("h") {
		switch {
		case agentOf(x) == a.name:
			last = x
		case agentOf(x) == b.name && !last.At.IsZero() && x.At.After(last.At) && first.At.IsZero():
			first = x
		}
	}
	if first.At.IsZero() {
		t.Fatal("the next process sent nothing: the test proved nothing")
	}
	return last, first
}

// A host's spacing is the host's, not a process's: when a process gives
// its shards back (here it is interrupted) and another takes them at
// once, the next request still waits --delay after the last one, whoever
// sent it. (The next holder started at once: its first request came a
// few tens of milliseconds after the last.)
func TestFleetKeepsAHostsSpacingAcrossAHandover(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	const delay = time.Second
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(3, nil))
	cfg := crawler.Config{PerHost: 1, Delay: delay, NoRobots: true}
	interrupt := func(a *member) { // its shards given back, with its server's next start
		a.l.CallSoonThreadsafe(a.c.Interrupt)
		if err := a.end(t, 30*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	last, first := handover(t, srv,
		memberOptions{redis: rds.URL(), id: "spacing", roots: []string{root + "/"}, cfg: cfg, name: "a"}, interrupt,
		memberOptions{redis: rds.URL(), id: "spacing", roots: []string{root + "/"}, cfg: cfg, name: "b"})
	// A little slack for the server's own scheduling (an arrival may be
	// written down late, and the next one then looks early).
	if gap := first.At.Sub(last.At); gap < delay-200*time.Millisecond {
		t.Fatalf("the next process's first request came %v after the last one of the process it took the host from, --delay %v", gap.Round(time.Millisecond), delay)
	}
}

// A host's robots.txt spaces its requests by its Crawl-delay across a
// death too: the process that takes the host over inherits its
// robots.txt with its shard, but not when the dead one last sent a
// request, so it counts its Crawl-delay from the moment it learns it, as
// if it had just fetched it. (It started at once, a lease after the
// death and well inside the Crawl-delay.)
func TestFleetKeepsCrawlDelayAcrossADeath(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	const crawlDelay = 2 * time.Second
	srv := wirelog.New(t)
	fan := wirelog.Fan(1, nil)
	root := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 2\n")
			return
		}
		fan.ServeHTTP(w, r)
	}))
	cfg := crawler.Config{PerHost: 1}
	last, first := handover(t, srv,
		memberOptions{redis: rds.URL(), id: "death", roots: []string{root + "/"}, cfg: cfg, name: "a"}, func(a *member) { a.kill(t) },
		memberOptions{redis: rds.URL(), id: "death", roots: []string{root + "/"}, cfg: cfg, name: "b"})
	if first.Path == "/robots.txt" {
		t.Fatalf("the next process fetched robots.txt again, though the crawl kept it")
	}
	if gap := first.At.Sub(last.At); gap < crawlDelay-200*time.Millisecond {
		t.Fatalf("the next process's first request came %v after the dead one's last, Crawl-delay %v", gap.Round(time.Millisecond), crawlDelay)
	}
}

// A process that dies has its shards taken over within about a lease:
// it counts as alive only while it beats, and its leases expire one
// lease after its last renewal. (It counted as alive for three leases,
// so its shards waited that long.) Judged in Redis: the leases' keys.
func TestFleetTakesADeadProcessesShardsWithinALease(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	const lease = 2 * time.Second
	web := newHostsWeb(t, 16, 30, 40*time.Millisecond)
	cfg := crawler.Config{MaxTasks: 16, PerHost: 1, NoRobots: true}
	a := start(t, memberOptions{redis: rds.URL(), id: "death", roots: web.roots, cfg: cfg, name: "a", lease: lease})
	b := start(t, memberOptions{redis: rds.URL(), id: "death", roots: web.roots, cfg: cfg, name: "b", lease: lease})
	waitRecords(t, 10, a)
	waitRecords(t, 10, b)
	holders := func() []string {
		args := []string{"MGET"}
		for shard := range 8 {
			args = append(args, fmt.Sprintf("loopkit:death:lease:%d", shard))
		}
		out, err := rds.CLI(args...)
		if err != nil {
			t.Fatal(err)
		}
		var who []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			owner, _, _ := strings.Cut(line, " ")
			who = append(who, owner)
		}
		return who
	}
	if !slices.Contains(holders(), "a") {
		t.Fatalf("the process to die holds no shard (%v): the test proves nothing", holders())
	}
	died := time.Now()
	a.kill(t)
	for {
		who := holders()
		if !slices.ContainsFunc(who, func(o string) bool { return o != "b" }) {
			break
		}
		if time.Since(died) > 10*lease {
			t.Fatalf("ten leases after the death, the shards are held by %v", who)
		}
		time.Sleep(20 * time.Millisecond)
	}
	took := time.Since(died)
	if took > lease*5/2 {
		t.Errorf("the survivor held every shard %v after the death, more than 2.5 leases of %v", took.Round(time.Millisecond), lease)
	}
	t.Logf("every shard held by the survivor %v after the death (lease %v)", took.Round(time.Millisecond), lease)
	if err := b.end(t, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := union(a, b); !slices.Equal(got, web.want) {
		t.Fatalf("recorded %d distinct URLs; the site has %d", len(got), len(web.want))
	}
}

// A process frozen past its lease (a stopped VM, SIGSTOP, a long pause:
// here its loop is held) wakes up believing it still holds its shards,
// with requests ready to go. It sends none: its own clock says its
// leases ran out, and it checks before every request. Meanwhile another
// process took its hosts over and finished the crawl.
func TestFleetFrozenProcessWakesAndSendsNothing(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	const lease = time.Second
	web := newHostsWeb(t, 3, 12, 60*time.Millisecond)
	cfg := crawler.Config{MaxTasks: 8, PerHost: 2, NoRobots: true}
	a := start(t, memberOptions{redis: rds.URL(), id: "freeze", roots: web.roots, cfg: cfg, name: "a", lease: lease})
	waitRecords(t, 4, a)
	thawed := make(chan struct{})
	frozen := time.Now()
	a.l.CallSoonThreadsafe(func() { <-thawed }) // the loop stops here until thawed
	b := start(t, memberOptions{redis: rds.URL(), id: "freeze", roots: web.roots, cfg: cfg, name: "b", lease: lease})
	if err := b.end(t, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	woke := time.Now()
	close(thawed)
	if err := a.end(t, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	var late []string
	for _, ar := range web.srv.Arrivals() {
		if agentOf(ar) == "a" && ar.At.After(frozen.Add(lease)) {
			late = append(late, fmt.Sprintf("%s%s at +%v", ar.Host, ar.Path, ar.At.Sub(woke).Round(time.Millisecond)))
		}
	}
	if len(late) > 0 {
		t.Fatalf("woken %v after it froze, past its lease, the process sent %d requests on hosts another had taken: %v", woke.Sub(frozen).Round(time.Millisecond), len(late), late)
	}
	if got := union(a, b); !slices.Equal(got, web.want) {
		t.Fatalf("recorded %d distinct URLs; the site has %d", len(got), len(web.want))
	}
}
