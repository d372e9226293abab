package crawler

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/internal/wirelog"
	"loopkit/loop"
	"loopkit/task"
)

// runStopped crawls cfg on one loop and interrupts it once it has made
// stop records.
func runStopped(t *testing.T, cfg Config, stop int) *Crawler {
	t.Helper()
	var c *Crawler
	n := 0
	cfg.OnRecord = func(*Record) {
		if n++; n == stop {
			c.Interrupt()
		}
	}
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if c, err = New(l, cfg); err != nil {
		t.Fatal(err)
	}
	guard := l.CallLater(30*time.Second, func() { t.Error("crawl hung"); l.Stop() })
	task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) })
	guard.Cancel()
	c.Close()
	return c
}

// A crawl stopped with more to do than QueueMemory starts again with
// that many URLs and reads the rest from its state directory as it goes
// (backlog.go): it says so; stopped again soon, it counts the rest as to
// do; and, one request at a time, the server sees the pages the first
// run left in the order the root linked them, each once — though most of
// them were still on disk when the second run's first request left.
func TestTheBacklogComesBackInOrderAfterAStop(t *testing.T) {
	t.Parallel()
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(300, nil))
	dir := t.TempDir()
	var notices []string
	cfg := Config{Roots: []string{root}, NoRobots: true, PerHost: 1, MaxTasks: 1, QueueMemory: 20,
		State: filepath.Join(dir, "state"), Output: filepath.Join(dir, "out.jsonl"),
		OnNotice: func(m string) { notices = append(notices, m) }}

	runStopped(t, cfg, 31) // the root, /p0 to /p29
	arrived := len(srv.Arrivals("h"))
	second := runStopped(t, cfg, 10)
	if !slices.ContainsFunc(notices, func(m string) bool { return strings.Contains(m, "more read from the state directory") }) {
		t.Fatalf("no notice of URLs read from the state directory as the crawl goes: %q", notices)
	}
	if left := 300 - (arrived - 1) - second.Stats().Done; second.Todo() < left {
		t.Fatalf("the second run, stopped, counts %d URLs to do; %d are", second.Todo(), left)
	}
	crawlInternal(t, cfg)
	var paths []string
	for _, a := range srv.Arrivals("h")[arrived:] {
		paths = append(paths, a.Path)
	}
	var want []string
	for i := arrived - 1; i < 300; i++ {
		want = append(want, fmt.Sprintf("/p%d", i))
	}
	if !slices.Equal(paths, want) {
		t.Fatalf("the second and third runs sent %d requests, want /p%d to /p299 in order; first %v", len(paths), arrived-1, paths[:min(8, len(paths))])
	}
}

// On two loops, each URL of the backlog goes to the loop that owns its
// server, whichever loop read it: every record of a loop is of a server
// it owns; and from the server's side, over both runs, every page was
// fetched once.
func TestTheBacklogGoesToTheLoopsThatOwnTheServers(t *testing.T) {
	t.Parallel()
	srv := wirelog.New(t)
	var roots []string
	for i := range 8 { // eight servers: on two loops, both own some (but for 1 chance in 128)
		roots = append(roots, srv.Host(fmt.Sprint("h", i), wirelog.Fan(30, nil)))
	}
	dir := t.TempDir()
	cfg := Config{Roots: roots, NoRobots: true, PerHost: 1, MaxTasks: 4, QueueMemory: 8,
		State: filepath.Join(dir, "state"), Output: filepath.Join(dir, "out.jsonl")}

	lg, err := loop.NewGroup(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lg.Close()
	first := cfg
	var g *Group
	var mu sync.Mutex
	n := 0
	first.OnRecord = func(*Record) {
		mu.Lock()
		defer mu.Unlock()
		if n++; n == 40 {
			g.Interrupt()
		}
	}
	if g, err = NewGroup(lg, first); err != nil {
		t.Fatal(err)
	}
	if err := g.Crawl(); err != nil {
		t.Fatal(err)
	}

	var notices []string
	cfg.OnNotice = func(m string) {
		mu.Lock()
		defer mu.Unlock()
		notices = append(notices, m)
	}
	g = crawlGroup(t, 2, cfg)
	if !slices.ContainsFunc(notices, func(m string) bool { return strings.Contains(m, "more read from the state directory") }) {
		t.Fatalf("no notice of URLs read from the state directory as the crawl goes: %q", notices)
	}
	for i := range g.Len() {
		for _, r := range g.Shard(i).Records() {
			u, _ := url.Parse(r.URL)
			if owner := ownerOf(u, g.Len()); owner != i {
				t.Fatalf("loop %d fetched %s, whose server loop %d owns", i, r.URL, owner)
			}
		}
	}
	fetched := map[string]int{}
	for _, a := range srv.Arrivals() {
		fetched[a.Host+a.Path]++
	}
	if len(fetched) != 8*31 {
		t.Fatalf("%d pages fetched over both runs, want %d", len(fetched), 8*31)
	}
	for page, k := range fetched {
		if k != 1 {
			t.Fatalf("%s fetched %d times", page, k)
		}
	}
}

// A server the start did not know, whose URLs were all in the backlog
// (its root linked none; another server's root linked them all),
// is held for its spacing from the start, as restarted holds those it
// knew: here the start's own URLs are all refused by a filter added with
// StateReuse, so the backlog is read at once, and b's first request of
// the second run must not come sooner after its last of the first than
// Delay.
func TestAServerFirstSeenInTheBacklogIsHeldForItsSpacing(t *testing.T) {
	t.Parallel() // it waits out Delay
	const delay = 400 * time.Millisecond
	srv := wirelog.New(t)
	b := srv.Host("b", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { wirelog.Page(w) }))
	var links []string
	for i := range 20 {
		links = append(links, fmt.Sprintf("/a%d", i))
	}
	for i := range 5 {
		links = append(links, fmt.Sprintf("%s/p%d", b, i))
	}
	a := srv.Host("a", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			wirelog.Page(w, links...)
			return
		}
		wirelog.Page(w)
	}))
	dir := t.TempDir()
	cfg := Config{Roots: []string{a + "/", b + "/"}, NoRobots: true, PerHost: 1, MaxTasks: 2, QueueMemory: 4, Delay: delay,
		State: filepath.Join(dir, "state"), Output: filepath.Join(dir, "out.jsonl")}
	var c *Crawler
	first := cfg
	first.OnRecord = func(r *Record) {
		if strings.HasPrefix(r.URL, b+"/p") {
			c.Interrupt()
		}
	}
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if c, err = New(l, first); err != nil {
		t.Fatal(err)
	}
	task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) })
	l.Close()
	c.Close()
	before := srv.Arrivals("b")
	if len(before) != 2 {
		t.Fatalf("the first run sent b %d requests, want 2: its root and /p0", len(before))
	}

	second := cfg
	second.StateReuse, second.Exclude = true, regexp.MustCompile(`/a\d+$`)
	crawlInternal(t, second)
	after := srv.Arrivals("b")
	if len(after) != 6 {
		t.Fatalf("b saw %d requests over both runs, want 6", len(after))
	}
	if gap := after[2].At.Sub(before[1].At); gap < delay*3/4 {
		t.Fatalf("b's first request of the second run came %v after its last of the first; Delay is %v", gap, delay)
	}
}
