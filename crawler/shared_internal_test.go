package crawler

import (
	"io"
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

// keeper is a loopback that keeps what the fleet is told a host learnt:
// its robots.txt and until when, and its server's holds.
type keeper struct {
	loopback
	robots []string
	until  []time.Time
	holds  map[string]time.Time
}

func (k *keeper) Robots(origin string, body []byte, until time.Time) {
	k.robots = append(k.robots, origin+" "+string(body))
	k.until = append(k.until, until)
}
func (k *keeper) Hold(authority string, until time.Time) { k.holds[authority] = until }

// The fleet keeps a robots.txt for a day (RFC 9309's cache limit), and a
// Retry-After for as long as the server asked, by its authority; what
// robots.txt refuses is settled with no record.
func TestTheFleetKeepsRobotsForADayAndHoldsAsAsked(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /private\n"
	srv, authority := wirelog.New(t), ""
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, rules) })
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "0")
		http.Redirect(w, r, "/b", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { wirelog.Page(w, "/private", "/a") })
	root := srv.Host("h", mux)
	authority = strings.TrimPrefix(root, "http://")
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	k := &keeper{holds: map[string]time.Time{}}
	c, err := New(l, Config{Roots: []string{root}, Shared: k})
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	guard := l.CallLater(30*time.Second, func() { t.Error("crawl hung"); l.Stop() })
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) }); err != nil {
		t.Fatal(err)
	}
	guard.Cancel()
	after := time.Now()
	if want := []string{root + " " + rules}; !slices.Equal(k.robots, want) {
		t.Fatalf("robots.txt kept %q, want %q", k.robots, want)
	}
	if u := k.until[0]; u.Before(before.Add(24*time.Hour)) || u.After(after.Add(24*time.Hour)) {
		t.Errorf("robots.txt kept until %v, want a day after the crawl's %v", u, before)
	}
	if u, ok := k.holds[authority]; len(k.holds) != 1 || !ok || u.Before(before) || u.After(after) {
		t.Errorf("holds %v, want %s held until now", k.holds, authority)
	}
	if !slices.Contains(k.settled, root+"/private") || c.Stats().RobotsDisallowed != 1 {
		t.Errorf("settled %q; %d disallowed", k.settled, c.Stats().RobotsDisallowed)
	}
}
