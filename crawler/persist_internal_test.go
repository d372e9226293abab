package crawler

import (
	"path/filepath"
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
	c.store.beforeWrite = func() { <-held }
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
