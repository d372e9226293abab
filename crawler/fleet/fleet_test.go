package fleet_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/fleet"
	"loopkit/internal/redistest"
	"loopkit/internal/wirelog"
	"loopkit/loop"
	"loopkit/task"
)

// A process alone counts each page once at every stage of its way
// through the fleet — found, new to the fleet, taken, settled — and takes
// every shard, loses none, gives none back. The report prints these
// counts ("This process: ..."), so each must be right.
func TestAProcessAloneCountsEachPageOnceAtEachStage(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 2, 5, 0) // two roots, ten pages: every URL of it found once
	m := startMember(t, rds, "alone", web.roots, crawler.Config{MaxTasks: 4, PerHost: 2, NoRobots: true})
	m.wait(t)
	n := len(web.want)
	if s := m.f.Stats; s.Found != n || s.New != n || s.Taken != n || s.Settled != n || s.Capped != 0 ||
		s.Acquired != 8 || s.LostLease != 0 || s.GivenBack != 0 || s.Fenced != 0 {
		t.Fatalf("stats %+v; want %d found, new, taken and settled, none over a share, the 8 shards taken, none lost or given back", s, n)
	}
}

// Three processes and one Redis crawl a site of eight hosts: together
// they record exactly the site's URLs, each once; the server sees each
// fetched once; and no host ever sees more than --per_host requests at
// once, across the whole fleet.
func TestFleetCrawlsEachURLOnceAndPolitely(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 8, 12, 200*time.Millisecond) // slow enough that the work is shared: a crawl over in a blink is one process's
	cfg := crawler.Config{MaxTasks: 8, PerHost: 2, NoRobots: true}
	var ms []*member
	for range 3 {
		ms = append(ms, startMember(t, rds, "polite", web.roots, cfg))
	}
	var all []string
	for _, m := range ms {
		m.wait(t)
		all = append(all, m.urls()...)
	}
	slices.Sort(all)
	if !slices.Equal(all, web.want) {
		t.Fatalf("the fleet recorded %d URLs (%d distinct); the site has %d", len(all), len(slices.Compact(slices.Clone(all))), len(web.want))
	}
	for _, a := range web.srv.Arrivals() {
		if n := web.srv.Count(a.Host, a.Path); n != 1 {
			t.Fatalf("%s %s fetched %d times", a.Host, a.Path, n)
		}
	}
	web.mu.Lock()
	defer web.mu.Unlock()
	for host, p := range web.peak {
		if p > 2 {
			t.Errorf("%s saw %d requests at once, --per_host 2", host, p)
		}
	}
	busy := 0
	for _, m := range ms {
		if len(m.urls()) > 0 {
			busy++
		}
	}
	if busy < 2 {
		t.Errorf("only %d of 3 processes did any work", busy)
	}
}

// A process that dies in the middle (its loop closed, as by kill -9: no
// lease given back) loses nothing: its shards are taken over once their
// leases expire, and the crawl ends with every URL recorded; what it had
// taken and not settled is fetched again, no more than it could have in
// flight.
func TestFleetSurvivesADeadProcess(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 8, 20, 10*time.Millisecond)
	cfg := crawler.Config{MaxTasks: 6, PerHost: 2, NoRobots: true}
	doomed := startMember(t, rds, "dead", web.roots, cfg) // alone at first: it has work to lose
	deadline := time.Now().Add(10 * time.Second)
	for len(doomed.urls()) < 10 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	others := []*member{startMember(t, rds, "dead", web.roots, cfg), startMember(t, rds, "dead", web.roots, cfg)}
	if n := len(doomed.urls()); n < 10 {
		t.Fatalf("the doomed process recorded %d URLs before its death: it did no work worth losing", n)
	}
	doomed.l.CallSoonThreadsafe(doomed.l.Stop) // the process dies: nothing is given back
	select {
	case <-doomed.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the doomed member did not stop")
	}
	var all []string
	all = append(all, doomed.urls()...)
	for _, m := range others {
		m.wait(t)
		all = append(all, m.urls()...)
	}
	distinct := slices.Compact(slices.Sorted(slices.Values(all)))
	if !slices.Equal(distinct, web.want) {
		t.Fatalf("the fleet recorded %d distinct URLs; the site has %d", len(distinct), len(web.want))
	}
	twice := 0
	for _, a := range web.srv.Arrivals() {
		switch n := web.srv.Count(a.Host, a.Path); {
		case n > 2:
			t.Fatalf("%s %s fetched %d times", a.Host, a.Path, n)
		case n == 2:
			twice++
		}
	}
	twice /= 2 // each such URL arrived twice
	if twice > 6+6 {
		t.Errorf("%d URLs fetched twice; a dead process had at most its window of 12 taken", twice)
	}
	// The fleet's report says how many may have been fetched twice: every
	// URL the server saw twice was put back by the next holder.
	out, err := rds.CLI("HGET", "loopkit:dead:tally", "put_back")
	if err != nil {
		t.Fatal(err)
	}
	putBack, _ := strconv.Atoi(strings.TrimSpace(out))
	if putBack < twice {
		t.Errorf("the fleet's tally says %d URLs put back (%q), but the server saw %d fetched twice", putBack, out, twice)
	}
	// And the operators heard it as it happened: each shard taken with
	// URLs its dead holder had taken is said, with their number.
	said := 0
	for _, m := range others {
		m.mu.Lock()
		for _, n := range m.notices {
			var shard, back int
			if _, err := fmt.Sscanf(n, "fleet: took shard %d, and %d URLs", &shard, &back); err == nil {
				said += back
			}
		}
		m.mu.Unlock()
	}
	if said != putBack {
		t.Errorf("the processes said %d URLs were taken back from the dead one; the tally says %d", said, putBack)
	}
	t.Logf("%d URLs fetched twice after the death, %d put back", twice, putBack)
}

// A process whose settings differ from the crawl's is refused, with how.
func TestFleetRefusesOtherSettings(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	join := func(cfg crawler.Config) error {
		f, err := fleet.New(fleet.Options{Redis: rds.URL(), CrawlID: "x", JoinWait: 300 * time.Millisecond,
			Settings: crawler.SettingsOf(cfg), Politeness: crawler.PolitenessOf(cfg)})
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) })
		return err
	}
	roots := []string{"http://a.test/"}
	polite := crawler.Config{Roots: roots, PerHost: 2, Delay: 100 * time.Millisecond}
	if err := join(polite); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  crawler.Config
		want string
	}{
		{crawler.Config{Roots: roots, PerHost: 2, Delay: 100 * time.Millisecond, Lenient: true}, "scope was strict, now lenient"},
		// Politeness is the crawl's: a process with its own would be rude
		// to the hosts it works, and no other would know.
		{crawler.Config{Roots: roots, PerHost: 8}, "Config.PerHost was 2, now 8; Config.Delay was 100ms, now 0s"},
		{crawler.Config{PerHost: 2, Delay: 100 * time.Millisecond, MaxPagesPerHost: 5}, "Config.MaxPagesPerHost was 0, now 5"},
	} {
		if err := join(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("joined with other settings: %v, want %q", err, tc.want)
		}
	}
	if err := join(crawler.Config{PerHost: 2, Delay: 100 * time.Millisecond}); err != nil {
		t.Errorf("joined with no roots and the crawl's politeness: %v", err)
	}
}

// A process that joins with another shard count takes the crawl's, and
// puts each host in the shard the crawl's creator does.
func TestFleetJoinerTakesTheCrawlsShards(t *testing.T) {
	t.Parallel() // it mostly waits on its server; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() }) // after the fleets'
	cfg := crawler.Config{Roots: []string{"http://a.test/"}}
	join := func(shards int) *fleet.Fleet {
		f, err := fleet.New(fleet.Options{Redis: rds.URL(), CrawlID: "x", Shards: shards,
			Settings: crawler.SettingsOf(cfg), Politeness: crawler.PolitenessOf(cfg)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) }); err != nil {
			t.Fatal(err)
		}
		return f
	}
	creator, joiner := join(4), join(64)
	for i := range 32 {
		host := fmt.Sprintf("h%d.test", i)
		if c, j := creator.ShardOfHost(host), joiner.ShardOfHost(host); c != j {
			t.Fatalf("%s is in shard %d for the crawl's creator, %d for a process that joined with 64 shards", host, c, j)
		}
	}
}

// A process with no roots stores nothing: it waits for its crawl to be
// started by one with roots (the order processes start in is nobody's
// to choose), and if none comes, it says so.
func TestFleetJoinerWithoutRootsWaitsAndStoresNothing(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 2, 5, 0)
	cfg := crawler.Config{MaxTasks: 4, NoRobots: true}
	early := startMember(t, rds, "order", nil, cfg)
	early.waitNotice(t, "waiting for crawl order")
	if out, err := rds.CLI("KEYS", "loopkit:order:*"); err != nil || strings.TrimSpace(out) != "" {
		t.Fatalf("a process with no roots stored %q (%v); want nothing", out, err)
	}
	creator := startMember(t, rds, "order", web.roots, cfg)
	for _, m := range []*member{early, creator} {
		if err := m.end(t, 30*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if got := union(early, creator); !slices.Equal(got, web.want) {
		t.Fatalf("recorded %d distinct URLs; the site has %d", len(got), len(web.want))
	}
	lonely := start(t, memberOptions{redis: rds.URL(), id: "nobody", cfg: cfg, joinWait: 300 * time.Millisecond})
	if err := lonely.end(t, 10*time.Second); err == nil || !strings.Contains(err.Error(), "no such crawl") {
		t.Fatalf("a process with no roots and no crawl to join: %v", err)
	}
}

// Redis down at the start is a clear error, not a hang: a process waits
// for it a few seconds (at most Options.JoinWait), then says why.
func TestFleetWithoutRedisIsAnError(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	rds.Kill()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f, _ := fleet.New(fleet.Options{Redis: rds.URL(), CrawlID: "x", JoinWait: 300 * time.Millisecond,
		Settings: crawler.SettingsOf(crawler.Config{Roots: []string{"http://a.test/"}})})
	defer f.Close()
	_, err = task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) })
	if err == nil || !strings.Contains(err.Error(), "cannot reach Redis") {
		t.Fatalf("Redis down: %v", err)
	}
}

// A process started a moment before its Redis (a fleet and its Redis are
// often started together) says it is waiting, once, and joins when Redis
// answers: the crawl is done as if Redis had been there.
func TestAProcessStartedBeforeItsRedisWaitsForIt(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	rds.Stop()
	web := newHostsWeb(t, 1, 3, 0)
	m := startMember(t, rds, "early", web.roots, crawler.Config{NoRobots: true})
	m.waitNotice(t, "waiting for Redis")
	time.Sleep(300 * time.Millisecond) // a few more PINGs refused
	rds.Restart()
	m.wait(t)
	if got := slices.Sorted(slices.Values(m.urls())); !slices.Equal(got, web.want) {
		t.Fatalf("recorded %v, want the site's %v", got, web.want)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if n := len(slices.DeleteFunc(slices.Clone(m.notices), func(s string) bool { return !strings.Contains(s, "waiting for Redis") })); n != 1 {
		t.Fatalf("said it was waiting for Redis %d times, want once: %q", n, m.notices)
	}
}

// Redis stopped in the middle of the crawl and started again on its
// append-only file: the processes pause their shards, say so, go on when
// it is back, and the crawl ends with every URL recorded.
func TestFleetSurvivesARedisRestart(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{AppendOnly: true})
	web := newHostsWeb(t, 6, 25, 10*time.Millisecond)
	cfg := crawler.Config{MaxTasks: 6, PerHost: 2, NoRobots: true}
	ms := []*member{startMember(t, rds, "restart", web.roots, cfg), startMember(t, rds, "restart", web.roots, cfg)}
	deadline := time.Now().Add(10 * time.Second)
	for len(ms[0].urls())+len(ms[1].urls()) < 20 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	rds.Stop()
	time.Sleep(2 * time.Second) // longer than a lease: every shard is paused
	rds.Restart()
	var all []string
	for _, m := range ms {
		m.wait(t)
		all = append(all, m.urls()...)
	}
	distinct := slices.Compact(slices.Sorted(slices.Values(all)))
	if !slices.Equal(distinct, web.want) {
		t.Fatalf("after a Redis restart the fleet recorded %d distinct URLs; the site has %d", len(distinct), len(web.want))
	}
	t.Logf("%d records for %d URLs", len(all), len(distinct))
}

// A process run again on its crawl (after a kill -9, say, or once the
// crawl is over) with the same -o appends to it: the lines it wrote
// before are pages the fleet has settled, and will not fetch again, so
// a file truncated would lose them for good.
func TestFleetProcessRunAgainKeepsItsOutput(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 2, 5, 0)
	out := filepath.Join(t.TempDir(), "a.jsonl")
	cfg := crawler.Config{MaxTasks: 4, NoRobots: true, Output: out}
	lines := func() []string {
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var urls []string
		for _, line := range strings.Split(string(b), "\n") {
			if line == "" {
				continue
			}
			var r crawler.Record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("a line of -o is not a record: %v", err)
			}
			urls = append(urls, r.URL)
		}
		slices.Sort(urls)
		return urls
	}
	startMember(t, rds, "again", web.roots, cfg).wait(t)
	if got := lines(); !slices.Equal(got, web.want) {
		t.Fatalf("first run: -o holds %d lines, want the site's %d URLs", len(got), len(web.want))
	}
	startMember(t, rds, "again", web.roots, cfg).wait(t)
	if got := lines(); !slices.Equal(got, web.want) {
		t.Fatalf("run again: -o holds %d lines, want the %d it held", len(got), len(web.want))
	}
}

// MaxPagesPerHost holds in a fleet crawl as it does alone: the fleet
// counts the URLs that enter each host's queue, whichever process found
// them, and the ones past the cap are only seen, so the crawl still ends.
// (The fleet's URLs entered without being counted: a host with a cap of 5
// had all of its 21 pages fetched.)
func TestFleetKeepsMaxPagesPerHost(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(20, nil))
	m := startMember(t, rds, "capped", []string{root + "/"}, crawler.Config{MaxTasks: 4, PerHost: 2, NoRobots: true, MaxPagesPerHost: 5})
	m.wait(t)
	if n := len(srv.Arrivals("h")); n != 5 {
		t.Fatalf("the server saw %d requests (%v), want MaxPagesPerHost 5", n, srv.Paths("h"))
	}
	if n := len(m.urls()); n != 5 {
		t.Fatalf("%d pages recorded, want 5", n)
	}
	out, err := rds.CLI("HGET", "loopkit:capped:tally", "filtered:max_pages_per_host")
	if err != nil || strings.TrimSpace(out) != "16" {
		t.Fatalf("the fleet's tally counts %q URLs over the cap (%v), want the other 16", out, err)
	}
}

// MaxPagesPerHost is the crawl's, not a process's: a host that changes
// hands in the middle (its process killed, its shard taken over) gets no
// more pages than the cap in all. (A count kept by the process working
// the host started again from nothing with the next one: 10 pages of a
// cap of 8.)
func TestFleetKeepsMaxPagesPerHostAcrossAHandover(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	srv := wirelog.New(t)
	slow := func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond)
		wirelog.Page(w)
	}
	root := srv.Host("h", wirelog.Fan(30, slow))
	cfg := crawler.Config{MaxTasks: 4, PerHost: 1, NoRobots: true, MaxPagesPerHost: 8}
	first := startMember(t, rds, "handover", []string{root + "/"}, cfg)
	deadline := time.Now().Add(20 * time.Second)
	for len(first.urls()) < 3 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	first.l.CallSoonThreadsafe(first.l.Stop) // killed: its lease runs out, and the next process takes the host
	select {
	case <-first.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the first process did not stop")
	}
	if n := len(first.urls()); n < 3 || n >= 8 {
		t.Fatalf("the first process recorded %d pages before it was killed: the host did not change hands in the middle", n)
	}
	next := startMember(t, rds, "handover", []string{root + "/"}, cfg)
	next.wait(t)
	fetched := map[string]bool{}
	for _, a := range srv.Arrivals("h") {
		fetched[a.Path] = true
	}
	if len(fetched) != 8 {
		t.Fatalf("the host's pages fetched across the handover: %d distinct (%v), want MaxPagesPerHost 8", len(fetched), srv.Paths("h"))
	}
	if got := len(slices.Compact(slices.Sorted(slices.Values(append(first.urls(), next.urls()...))))); got != 8 {
		t.Fatalf("%d distinct pages recorded, want 8", got)
	}
}

// A fleet obeys robots.txt, and a URL it refuses is settled with the
// fleet, so the crawl still ends: two processes crawl a host whose
// robots.txt disallows /private, its root linking to pages on both
// sides. The server sees robots.txt and the allowed pages, never a
// private one, and both processes end. (Offered URLs that skipped the
// screen were fetched against robots.txt; refused ones never settled
// left the crawl waiting for ever.)
func TestFleetObeysRobotsAndEnds(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	srv := wirelog.New(t)
	root := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		case r.URL.Path == "/":
			var links []string
			for i := range 10 {
				links = append(links, fmt.Sprintf("/private/%d", i), fmt.Sprintf("/public/%d", i))
			}
			wirelog.Page(w, links...)
		default:
			wirelog.Page(w)
		}
	}))
	cfg := crawler.Config{MaxTasks: 4, PerHost: 2}
	a := startMember(t, rds, "robots", []string{root + "/"}, cfg)
	b := startMember(t, rds, "robots", []string{root + "/"}, cfg)
	for _, m := range []*member{a, b} {
		if err := m.end(t, 30*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range srv.Paths("h") {
		if strings.HasPrefix(p, "/private") {
			t.Errorf("%s, disallowed by robots.txt, reached the server", p)
		}
	}
	if got, want := len(srv.Arrivals("h")), 1+1+10; got != want {
		t.Errorf("the server saw %d requests (%v), want robots.txt, the root and 10 public pages", got, srv.Paths("h"))
	}
}

// A process that ends leaves the fleet's list of live processes at once,
// rather than when it would have missed its next beat: those still
// crawling count one fewer, and take a bigger share of the shards.
func TestAProcessThatEndsLeavesTheLiveList(t *testing.T) {
	t.Parallel() // it waits on a small crawl; it has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 2, 5, 0)
	m := start(t, memberOptions{redis: rds.URL(), id: "leave", roots: web.roots, cfg: crawler.Config{MaxTasks: 2, NoRobots: true}, name: "solo"})
	if err := m.end(t, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if n := len(m.urls()); n != len(web.want) {
		t.Fatalf("the process recorded %d URLs of the site's %d", n, len(web.want))
	}
	if got, err := rds.CLI("ZSCORE", "loopkit:leave:procs", "solo"); err != nil || strings.TrimSpace(got) != "" {
		t.Fatalf("the process ended, and the fleet's live list still has it: %q, %v", got, err)
	}
}
