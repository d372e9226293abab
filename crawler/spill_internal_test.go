package crawler

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/internal/wirelog"
	"loopkit/loop"
	"loopkit/task"
)

func crawlInternal(t *testing.T, cfg Config) *Crawler {
	t.Helper()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := New(l, cfg)
	if err != nil {
		t.Fatal(err)
	}
	guard := l.CallLater(30*time.Second, func() { t.Error("crawl hung"); l.Stop() })
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) }); err != nil {
		t.Fatal(err)
	}
	guard.Cancel()
	return c
}

// smallChunks sets a package variable, so a test that calls it must not
// be parallel: go test runs sequential tests alone.
func smallChunks(t *testing.T) {
	was := spillChunk
	spillChunk = 16
	t.Cleanup(func() { spillChunk = was })
}

// Past QueueMemory, a long host queue's later URLs wait on disk, and come
// back in order: with one request at a time, the server sees the pages
// in the order the root linked them, each once, though most of them went
// to disk and back; and the frontier never held many more than the limit.
func TestLongQueueSpillsAndComesBackInOrder(t *testing.T) {
	smallChunks(t)
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(300, nil))
	c := crawlInternal(t, Config{Roots: []string{root}, NoRobots: true, PerHost: 1, MaxTasks: 4, QueueMemory: 20})
	var paths []string
	for _, a := range srv.Arrivals("h") {
		paths = append(paths, a.Path)
	}
	want := []string{"/"}
	for i := range 300 {
		want = append(want, fmt.Sprintf("/p%d", i))
	}
	if !slices.Equal(paths, want) {
		t.Fatalf("the server saw %d requests, not the root then /p0 to /p299 in order: first %v", len(paths), paths[:min(8, len(paths))])
	}
	if c.overflow.peak < 200 || c.front.QueuedPeak() > 20+spillChunk {
		t.Fatalf("spilled at most %d, in memory at most %d: want most of 300 on disk and at most %d in memory",
			c.overflow.peak, c.front.QueuedPeak(), 20+spillChunk)
	}
	if c.overflow.count != 0 || c.Stats().Done != 301 {
		t.Fatalf("%d still spilled, %d done", c.overflow.count, c.Stats().Done)
	}
}

// A host given up while URLs of it wait on disk has those recorded too,
// with why, and the crawl ends.
func TestSpilledURLsOfAGivenUpHostAreRecorded(t *testing.T) {
	smallChunks(t)
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(200, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/p3" {
			w.Header().Set("Retry-After", "600")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		wirelog.Page(w)
	}))
	c := crawlInternal(t, Config{Roots: []string{root}, NoRobots: true, PerHost: 1, MaxTasks: 2, QueueMemory: 20,
		MaxRetryAfter: time.Second})
	given := 0
	seen := map[string]bool{}
	for _, r := range c.Records() {
		if seen[r.URL] {
			t.Fatalf("%s recorded twice", r.URL)
		}
		seen[r.URL] = true
		if r.ErrorKind == "retry_after" {
			given++
		}
	}
	if len(seen) != 201 || given < 150 || c.overflow.peak == 0 {
		t.Fatalf("%d recorded, %d given up, %d spilled at most; want all 201, most given up, some spilled", len(seen), given, c.overflow.peak)
	}
}

// On two loops with a state directory, both loops' long queues spill to
// one directory, and every URL comes back: one loop's opening of the
// directory must not empty it under the other.
func TestTwoLoopsSpillToOneDirectory(t *testing.T) {
	smallChunks(t)
	srv := wirelog.New(t)
	var roots []string
	for i := range 4 {
		roots = append(roots, srv.Host(fmt.Sprint("h", i), wirelog.Fan(150, nil)))
	}
	g := crawlGroup(t, 2, Config{Roots: roots, NoRobots: true, PerHost: 2, MaxTasks: 4, QueueMemory: 40,
		State: t.TempDir()})
	spilled := 0
	for i := range g.Len() {
		spilled += g.Shard(i).overflow.peak
	}
	if n := g.Stats().Done; n != 4*151 || spilled == 0 {
		t.Fatalf("%d done, %d spilled at most; want %d done and some spilled on each loop", n, spilled, 4*151)
	}
}

// A crawl stopped with more URLs to do than QueueMemory goes on: its
// replay puts them back through the spill, which needs the crawl's store
// before the replay runs (it panicked on a nil store), and every URL ends
// in -o once.
func TestResumeWithMoreToDoThanQueueMemory(t *testing.T) {
	smallChunks(t)
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(300, nil))
	dir := t.TempDir()
	cfg := Config{Roots: []string{root}, NoRobots: true, PerHost: 1, MaxTasks: 2, QueueMemory: 20,
		State: filepath.Join(dir, "state"), Output: filepath.Join(dir, "out.jsonl")}

	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	first := cfg
	var c *Crawler
	n := 0
	first.OnRecord = func(*Record) {
		if n++; n == 30 {
			l.Stop() // the process dies here, as far as this crawl can tell
		}
	}
	if c, err = New(l, first); err != nil {
		t.Fatal(err)
	}
	task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) })
	l.Close()
	c.Close()

	second := crawlInternal(t, cfg)
	if !storeOf(second).resumed || second.overflow.peak == 0 {
		t.Fatalf("resumed %v, spilled at most %d: want a resumed crawl whose replay spilled", storeOf(second).resumed, second.overflow.peak)
	}
	b, err := os.ReadFile(cfg.Output)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if seen[r.URL] {
			t.Fatalf("%s has two lines", r.URL)
		}
		seen[r.URL] = true
	}
	if len(seen) != 301 {
		t.Fatalf("%d URLs in -o over both runs, want 301", len(seen))
	}
}
