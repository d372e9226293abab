package crawler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loopkit/internal/wirelog"
	"loopkit/loop"
	"loopkit/task"
)

// loopback is a Shared crawl of one process, in memory: what it is told
// was found it offers straight back, and it ends the crawl when every
// offer is settled. It stands for the fleet in tests of the seam's order
// (package crawler/fleet's tests run the real one, on Redis).
type loopback struct {
	c        *Crawler
	offered  int
	settled  []string
	onSettle func(url string, r *Record)
}

func (b *loopback) Start(c *Crawler) { b.c = c }
func (b *loopback) Found(u string, depth, redirects int32) {
	b.offered++
	b.c.loop.CallSoon(func() { b.c.Offer(u, depth, redirects) })
}
func (b *loopback) Settled(u string, r *Record) {
	b.settled = append(b.settled, u)
	if b.onSettle != nil {
		b.onSettle(u, r)
	}
	if len(b.settled) == b.offered {
		b.c.End()
	}
}
func (b *loopback) MaySend(string) bool              { return true }
func (b *loopback) Robots(string, []byte, time.Time) {}
func (b *loopback) Hold(string, time.Time)           {}
func (b *loopback) Finish(task.Yield) error          { return nil }

// A shared crawl settles a page only once its line is in Config.Output:
// settled first, a page would be lost to a kill between the two, since
// no process fetches a settled page again. Here every write to the disk
// is slow, and each settle finds its page's line already in the file.
func TestASharedPageIsSettledAfterItsLineIsWritten(t *testing.T) {
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(10, nil))
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out := filepath.Join(t.TempDir(), "out.jsonl")
	shared := &loopback{}
	var missing []string
	shared.onSettle = func(url string, r *Record) {
		b, err := os.ReadFile(out)
		if err != nil {
			t.Error(err)
		}
		if r != nil && !strings.Contains(string(b), `"url":"`+url+`"`) {
			missing = append(missing, url)
		}
	}
	c, err := New(l, Config{Roots: []string{root}, NoRobots: true, Output: out, Shared: shared, MaxTasks: 4})
	if err != nil {
		t.Fatal(err)
	}
	storeOf(c).beforeWrite = func() { time.Sleep(20 * time.Millisecond) }
	guard := l.CallLater(30*time.Second, func() { t.Error("crawl hung"); l.Stop() })
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) }); err != nil {
		t.Fatal(err)
	}
	guard.Cancel()
	if len(shared.settled) != 11 {
		t.Fatalf("%d settled, want the site's 11 pages", len(shared.settled))
	}
	if len(missing) > 0 {
		t.Fatalf("%d pages settled before their line was written: %v", len(missing), missing)
	}
}
