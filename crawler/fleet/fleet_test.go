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
	"sync"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/fleet"
	"loopkit/internal/redistest"
	"loopkit/internal/wirelog"
	"loopkit/loop"
	"loopkit/task"
)

// hostsWeb starts n hosts, each a fan of pages whose leaves link to two
// pages of the next host: most URLs are found on another host than their
// own, so they cross from one shard to another. Each host counts its
// requests in flight, on the server's side.
type hostsWeb struct {
	srv   *wirelog.Server
	roots []string
	mu    sync.Mutex
	now   map[string]int
	peak  map[string]int
	want  []string
}

func newHostsWeb(t *testing.T, n, pages int, hold time.Duration) *hostsWeb {
	w := &hostsWeb{srv: wirelog.New(t), now: map[string]int{}, peak: map[string]int{}}
	bases := make([]string, n)
	for h := range n {
		name := fmt.Sprint("h", h)
		fan := wirelog.Fan(pages, func(rw http.ResponseWriter, r *http.Request) {
			next := bases[(h+1)%n]
			wirelog.Page(rw, next+"/p0", next+"/p1")
		})
		bases[h] = w.srv.Host(name, http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			w.mu.Lock()
			w.now[name]++
			w.peak[name] = max(w.peak[name], w.now[name])
			w.mu.Unlock()
			time.Sleep(hold)
			fan.ServeHTTP(rw, r)
			w.mu.Lock()
			w.now[name]--
			w.mu.Unlock()
		}))
	}
	for _, b := range bases {
		w.roots = append(w.roots, b+"/")
		w.want = append(w.want, b+"/")
		for i := range pages {
			w.want = append(w.want, fmt.Sprintf("%s/p%d", b, i))
		}
	}
	slices.Sort(w.want)
	return w
}

// member is one process of the fleet, played by a loop of its own.
type member struct {
	l       *loop.Loop
	f       *fleet.Fleet
	c       *crawler.Crawler
	mu      sync.Mutex
	records []string
	done    chan error
}

func startMember(t *testing.T, rds *redistest.Server, id string, roots []string, cfg crawler.Config) *member {
	t.Helper()
	m := &member{done: make(chan error, 1)}
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	m.l = l
	cfg.Roots = roots
	f, err := fleet.New(fleet.Options{Redis: rds.URL(), CrawlID: id, Shards: 8, Lease: time.Second,
		Settings: crawler.SettingsOf(cfg), Notice: func(s string) { t.Log(s) }})
	if err != nil {
		t.Fatal(err)
	}
	m.f = f
	cfg.Shared = f
	cfg.OnRecord = func(r *crawler.Record) {
		m.mu.Lock()
		m.records = append(m.records, r.URL)
		m.mu.Unlock()
	}
	go func() {
		defer l.Close()
		if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) }); err != nil {
			m.done <- err
			return
		}
		c, err := crawler.New(l, cfg)
		if err != nil {
			m.done <- err
			return
		}
		m.c = c
		_, err = task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) })
		f.Close()
		m.done <- err
	}()
	return m
}

func (m *member) wait(t *testing.T) {
	t.Helper()
	select {
	case err := <-m.done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("a member of the fleet did not finish in a minute")
	}
}

func (m *member) urls() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.records)
}

// Three processes and one Redis crawl a site of eight hosts: together
// they record exactly the site's URLs, each once; the server sees each
// fetched once; and no host ever sees more than --per_host requests at
// once, across the whole fleet.
func TestFleetCrawlsEachURLOnceAndPolitely(t *testing.T) {
	rds := redistest.Start(t, redistest.Options{})
	web := newHostsWeb(t, 8, 12, 5*time.Millisecond)
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
	t.Logf("%d URLs fetched twice after the death, %d put back", twice, putBack)
}

// A process whose settings differ from the crawl's is refused, with how.
func TestFleetRefusesOtherSettings(t *testing.T) {
	rds := redistest.Start(t, redistest.Options{})
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	join := func(roots []string, lenient bool) error {
		f, err := fleet.New(fleet.Options{Redis: rds.URL(), CrawlID: "x",
			Settings: crawler.SettingsOf(crawler.Config{Roots: roots, Lenient: lenient})})
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) })
		return err
	}
	if err := join([]string{"http://a.test/"}, false); err != nil {
		t.Fatal(err)
	}
	err = join([]string{"http://a.test/"}, true)
	if err == nil || !strings.Contains(err.Error(), "scope was strict, now lenient") {
		t.Fatalf("other settings: %v", err)
	}
}

// Redis down at the start is a clear error, not a hang.
func TestFleetWithoutRedisIsAnError(t *testing.T) {
	rds := redistest.Start(t, redistest.Options{})
	rds.Kill()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f, _ := fleet.New(fleet.Options{Redis: rds.URL(), CrawlID: "x", Settings: crawler.SettingsOf(crawler.Config{Roots: []string{"http://a.test/"}})})
	defer f.Close()
	_, err = task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) })
	if err == nil || !strings.Contains(err.Error(), "cannot reach Redis") {
		t.Fatalf("Redis down: %v", err)
	}
}

// Redis stopped in the middle of the crawl and started again on its
// append-only file: the processes pause their shards, say so, go on when
// it is back, and the crawl ends with every URL recorded.
func TestFleetSurvivesARedisRestart(t *testing.T) {
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

// MaxPagesPerHost holds in a fleet crawl as it does alone: the process
// that works a host counts the URLs that enter its queue, whichever
// process found them, and settles the ones past the cap unfetched, so the
// crawl still ends. (The fleet's URLs entered without being counted: a
// host with a cap of 5 had all of its 21 pages fetched.)
func TestFleetKeepsMaxPagesPerHost(t *testing.T) {
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
	if got := m.c.Stats().Filtered["max_pages_per_host"]; got != 16 {
		t.Fatalf("%d URLs counted as over the cap, want the other 16", got)
	}
}
