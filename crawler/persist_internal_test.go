package crawler

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/internal/wirelog"
	"loopkit/loop"
	"loopkit/task"
)

// With a journal, a job is not over before its record and the links it
// found are on disk: while the disk holds every write back, the crawl
// makes no more than MaxTasks requests, and once it lets go, the crawl
// finishes.
func TestNoJobIsOverBeforeItIsOnDisk(t *testing.T) {
	t.Parallel()
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(30, nil))
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	dir := t.TempDir()
	c, err := New(l, Config{Roots: []string{root}, NoRobots: true, MaxTasks: 3, PerHost: 8,
		State: filepath.Join(dir, "state"), Output: filepath.Join(dir, "out.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan struct{})
	storeOf(c).beforeWrite = func() { <-held }
	var during int
	l.CallLater(300*time.Millisecond, func() {
		during = len(srv.Arrivals("h"))
		close(held)
	})
	guard := l.CallLater(30*time.Second, func() { t.Error("crawl hung"); l.Stop() })
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) }); err != nil {
		t.Fatal(err)
	}
	guard.Cancel()
	if during > 3 {
		t.Fatalf("%d requests while the disk held every write back, want at most MaxTasks, 3", during)
	}
	if n := c.Stats().Done; n != 31 {
		t.Fatalf("%d done once the disk let go, want 31", n)
	}
}

// A crawl stopped while a Retry-After holds its server back goes on when
// started again before the hold is over: the resumed crawl, which has no
// worker yet, wakes when the hold ends, sends nothing before, and
// finishes with every URL in -o once. (It waited forever: with no worker
// parked, nothing set a timer for the hold's end.)
func TestResumeWithinARetryAfterHold(t *testing.T) {
	t.Parallel() // its own servers and files; it mostly waits
	srv := wirelog.New(t)
	hit := make(chan struct{})
	var once sync.Once
	root := srv.Host("h", wirelog.Fan(3, func(w http.ResponseWriter, r *http.Request) {
		first := false
		if r.URL.Path == "/p1" {
			once.Do(func() { first = true })
		}
		if first {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusServiceUnavailable)
			close(hit)
			return
		}
		wirelog.Page(w)
	}))
	dir := t.TempDir()
	cfg := Config{Roots: []string{root}, NoRobots: true, PerHost: 1, MaxTasks: 2,
		State: filepath.Join(dir, "state"), Output: filepath.Join(dir, "out.jsonl")}

	// The first run is interrupted as the 503 arrives (Ctrl-C).
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(l, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() {
		select {
		case <-hit:
			l.CallSoonThreadsafe(c.Interrupt)
		case <-ended:
		}
	}()
	guard := l.CallLater(30*time.Second, func() { t.Error("first run hung"); l.Stop() })
	task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) })
	guard.Cancel()
	close(ended)
	l.Close()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	held := srv.Arrivals("h")
	if len(held) == 0 || held[len(held)-1].Path != "/p1" {
		t.Fatalf("first run's requests %v, want them to end with the 503 for /p1", srv.Paths("h"))
	}
	hitAt := held[len(held)-1].At

	second := crawlInternal(t, cfg)
	if !storeOf(second).resumed {
		t.Fatal("the second run did not resume")
	}
	if early := srv.Within("h", hitAt, hitAt.Add(2*time.Second)); len(early) > 0 {
		t.Fatalf("%s arrived %v after the 503, within its Retry-After", early[0].Path, early[0].At.Sub(hitAt))
	}
	b, err := os.ReadFile(cfg.Output)
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		lines[r.URL]++
	}
	for _, p := range []string{"/", "/p0", "/p1", "/p2"} {
		if lines[root+p] != 1 {
			t.Errorf("%s has %d lines in -o, want 1", p, lines[root+p])
		}
	}
	if len(lines) != 4 {
		t.Errorf("%d URLs in -o, want 4", len(lines))
	}
}

// A URL queued before its host's robots.txt was known, and refused by it,
// is refused again when the crawl starts again: the replayed robots.txt
// is applied to the URLs replayed before it. (The resumed crawl fetched
// it: the journal keeps it queued, since a refused URL is not done.)
func TestResumeKeepsRobotsRulesForWhatWasQueued(t *testing.T) {
	srv := wirelog.New(t)
	root := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
			return
		}
		wirelog.Page(w)
	}))
	dir := t.TempDir()
	cfg := Config{Roots: []string{root + "/", root + "/private/x"}, MaxTasks: 2,
		State: filepath.Join(dir, "state"), Output: filepath.Join(dir, "out.jsonl")}
	for run := 1; run <= 2; run++ {
		c := crawlInternal(t, cfg)
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if run == 2 && !storeOf(c).resumed {
			t.Fatal("the second run did not resume")
		}
		if got := c.Stats().RobotsDisallowed; got != 1 {
			t.Errorf("run %d: %d URLs disallowed, want 1 (/private/x)", run, got)
		}
	}
	if n := srv.Count("h", "/private/x"); n != 0 {
		t.Fatalf("/private/x, disallowed by robots.txt, was fetched %d times over the two runs", n)
	}
	if n := srv.Count("h", "/robots.txt"); n != 1 {
		t.Errorf("robots.txt fetched %d times over the two runs, want 1 (the journal keeps it)", n)
	}
}

// storeOf is the crawl's store, which c's writer writes to.
func storeOf(c *Crawler) *store {
	for _, e := range c.ext {
		if w, ok := e.(*writer); ok {
			return w.store
		}
	}
	return nil
}
