package fleet_test

import (
	"fmt"
	"net/http"
	"slices"
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
			w.mu.Lock() // the hosts are made one after the other, and serve as they come
			next := bases[(h+1)%n]
			w.mu.Unlock()
			wirelog.Page(rw, next+"/p0", next+"/p1")
		})
		base := w.srv.Host(name, http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
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
		w.mu.Lock()
		bases[h] = base
		w.mu.Unlock()
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
	notices []string
	done    chan error
}

// waitNotice waits until the member's fleet said something containing s.
func (m *member) waitNotice(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		m.mu.Lock()
		said := slices.ContainsFunc(m.notices, func(n string) bool { return strings.Contains(n, s) })
		m.mu.Unlock()
		if said {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fleet never said %q", s)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func startMember(t *testing.T, rds *redistest.Server, id string, roots []string, cfg crawler.Config) *member {
	t.Helper()
	return start(t, memberOptions{redis: rds.URL(), id: id, roots: roots, cfg: cfg})
}

// memberOptions are a member's: where its Redis is (a proxy, maybe), its
// crawl, and its lease.
type memberOptions struct {
	redis    string
	id       string
	roots    []string
	cfg      crawler.Config
	lease    time.Duration // [1s]
	name     string        // put in the User-Agent's comment, so the server can tell members apart
	joinWait time.Duration // [fleet's]
	window   int           // [fleet's]
}

func start(t *testing.T, o memberOptions) *member {
	t.Helper()
	m := &member{done: make(chan error, 1)}
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	m.l = l
	cfg := o.cfg
	cfg.Roots = o.roots
	if o.name != "" {
		cfg.UserAgent = "loopkit/0.1 (" + o.name + ")"
	}
	owner := o.name // leases name their holder: "a 3"
	if owner == "" {
		owner = fmt.Sprintf("member%p", m)
	}
	if o.lease == 0 {
		o.lease = time.Second
	}
	f, err := fleet.New(fleet.Options{Redis: o.redis, CrawlID: o.id, Shards: 8, Lease: o.lease, Owner: owner,
		Settings: crawler.SettingsOf(cfg), Politeness: crawler.PolitenessOf(cfg), JoinWait: o.joinWait, Window: o.window, Notice: func(s string) {
			t.Logf("%s: %s", o.name, s)
			m.mu.Lock()
			m.notices = append(m.notices, s)
			m.mu.Unlock()
		}})
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
		cfg.Roots = f.Roots()
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

// end waits for the member's crawl to end, and returns its error;
// after within, the test fails: the crawl hangs.
func (m *member) end(t *testing.T, within time.Duration) error {
	t.Helper()
	select {
	case err := <-m.done:
		return err
	case <-time.After(within):
		t.Fatalf("a member of the fleet did not finish in %v: it hangs", within)
		return nil
	}
}

// kill stops the member's loop, as kill -9 would stop its process:
// nothing is given back.
func (m *member) kill(t *testing.T) {
	t.Helper()
	m.l.CallSoonThreadsafe(m.l.Stop)
	select {
	case <-m.done:
	case <-time.After(10 * time.Second):
		t.Fatal("a killed member did not stop")
	}
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
