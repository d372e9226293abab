package crawler_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/internal/e2e"
	"loopkit/internal/wirelog"
	"loopkit/loop"
	"loopkit/task"
)

// runUntil crawls cfg on one loop, interrupting it once it has made
// records records (0: never), and returns the crawler and its notices.
func runUntil(t *testing.T, cfg crawler.Config, records int) (*crawler.Crawler, []string) {
	t.Helper()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var notices []string
	cfg.OnNotice = func(m string) { notices = append(notices, m) }
	var c *crawler.Crawler
	n := 0
	cfg.OnRecord = func(*crawler.Record) {
		if n++; n == records {
			c.Interrupt()
		}
	}
	if c, err = crawler.New(l, cfg); err != nil {
		t.Fatal(err)
	}
	guard := l.CallLater(30*time.Second, func() { t.Error("crawl hung"); l.Stop() })
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) }); err != nil {
		t.Fatal(err)
	}
	guard.Cancel()
	return c, notices
}

func stateConfig(t *testing.T, roots ...string) crawler.Config {
	dir := t.TempDir()
	return crawler.Config{Roots: roots, MaxTasks: 2, PerHost: 1, BackoffBase: time.Millisecond,
		State: filepath.Join(dir, "state"), Output: filepath.Join(dir, "out.jsonl")}
}

// A server's spacing holds over a restart: the crawl, stopped and
// started again at once, sends its first request a Crawl-delay after the
// last one of the run before, not as soon as it can. (The next allowed
// time is not kept; it is restored conservatively: as if a request had
// just left.)
func TestPolitenessSurvivesARestart(t *testing.T) {
	t.Parallel() // its own servers and files; it mostly waits
	srv := wirelog.New(t)
	fan := wirelog.Fan(6, nil)
	root := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nCrawl-delay: 0.5\n"))
			return
		}
		fan.ServeHTTP(w, r)
	}))
	cfg := stateConfig(t, root)
	runUntil(t, cfg, 2)
	before := srv.Arrivals("h")
	runUntil(t, cfg, 1)
	after := srv.Arrivals("h")[len(before):]
	if len(after) == 0 || after[0].Path == "/robots.txt" {
		t.Fatalf("the second run's requests %v: want pages (robots.txt is kept)", after)
	}
	if gap := after[0].At.Sub(before[len(before)-1].At); gap < 500*time.Millisecond {
		t.Fatalf("the first request after the restart came %v after the last before it, within the Crawl-delay of 0.5s", gap)
	}
}

// What was in flight when a crawl stopped is not what the next start
// sends first: a page that crashed the crawler (an out-of-memory kill,
// and a service manager restarting it) would crash every start first.
// Here the stop is a cancellation of a page that hangs; the start after
// it fetches every other page before it.
func TestWhatWasInFlightComesLast(t *testing.T) {
	srv := wirelog.New(t)
	hang := make(chan struct{})
	arrived := make(chan struct{}, 1)
	root := srv.Host("h", wirelog.Fan(5, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/p0" {
			select {
			case arrived <- struct{}{}:
			default:
			}
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		}
		wirelog.Page(w)
	}))
	cfg := stateConfig(t, root)
	cfg.NoRobots = true
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := crawler.New(l, cfg)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		<-arrived // /p0 is on the wire: cancel it (Ctrl-C twice)
		l.CallSoonThreadsafe(func() { c.Interrupt(); c.Interrupt() })
	}()
	guard := l.CallLater(30*time.Second, func() { t.Error("crawl hung"); l.Stop() })
	task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) })
	guard.Cancel()
	l.Close()
	close(hang)
	before := len(srv.Arrivals("h"))

	runUntil(t, cfg, 0)
	var order []string
	for _, a := range srv.Arrivals("h")[before:] {
		order = append(order, a.Path)
	}
	if want := []string{"/p1", "/p2", "/p3", "/p4", "/p0"}; !slices.Equal(order, want) {
		t.Fatalf("the start after the stop sent %v, want %v: what was in flight last", order, want)
	}
}

// --state_reuse with a new Exclude (a trap to escape) applies it to the
// URLs the stopped crawl had queued, not only to those found from now
// on: none of them is fetched, and the notice says how many were dropped.
func TestReuseAppliesNewFiltersToWhatWasQueued(t *testing.T) {
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(20, nil))
	cfg := stateConfig(t, root)
	cfg.NoRobots = true
	runUntil(t, cfg, 1) // the root: its 20 links are queued
	before := len(srv.Arrivals("h"))
	cfg.StateReuse = true
	cfg.Exclude = regexp.MustCompile(`/p1\d$`)
	_, notices := runUntil(t, cfg, 0)
	var fetched []string
	for _, a := range srv.Arrivals("h")[before:] {
		fetched = append(fetched, a.Path)
		if cfg.Exclude.MatchString(a.Path) {
			t.Errorf("%s, which the new Exclude refuses, was fetched", a.Path)
		}
	}
	if len(fetched) != 10 {
		t.Errorf("fetched %v, want /p0 to /p9", fetched)
	}
	if !slices.ContainsFunc(notices, func(n string) bool {
		return strings.Contains(n, "and 10 queued URLs this run's filters refuse, dropped")
	}) {
		t.Errorf("notices %q: none says the 10 queued URLs were dropped", notices)
	}
}

// A filter added with --state_reuse holds at every start after it, not
// only the first: the URLs it refused stay queued in the journal, so a
// start with the same settings, after a stop, filters them again.
func TestANewFilterHoldsOverLaterStarts(t *testing.T) {
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(20, nil))
	cfg := stateConfig(t, root)
	cfg.NoRobots = true
	runUntil(t, cfg, 1) // the root: its 20 links are queued
	cfg.StateReuse = true
	cfg.Exclude = regexp.MustCompile(`/p1\d$`)
	runUntil(t, cfg, 2) // stopped with more to do
	cfg.StateReuse = false
	_, notices := runUntil(t, cfg, 0)
	for _, a := range srv.Arrivals("h") {
		if cfg.Exclude.MatchString(a.Path) {
			t.Errorf("%s, which the Exclude added two starts ago refuses, was fetched", a.Path)
		}
	}
	if got := jsonlOf(t, cfg.Output); len(got) != 11 {
		t.Errorf("-o holds %d lines, want the root and /p0 to /p9", len(got))
	}
	if !slices.ContainsFunc(notices, func(n string) bool {
		return strings.Contains(n, "and 10 queued URLs this run's filters refuse, dropped")
	}) {
		t.Errorf("notices %q: none says the 10 queued URLs were dropped again", notices)
	}
}

// Config.MaxPagesPerHost holds over stops: the pages done before count,
// so a crawl stopped and resumed fetches the URLs an uninterrupted one
// does, not its cap again.
func TestPagesPerHostCapHoldsOverARestart(t *testing.T) {
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(20, nil))
	whole := stateConfig(t, root)
	whole.NoRobots, whole.MaxPagesPerHost = true, 8
	runUntil(t, whole, 0)
	want := jsonlOf(t, whole.Output)

	cfg := stateConfig(t, root)
	cfg.NoRobots, cfg.MaxPagesPerHost = true, 8
	runUntil(t, cfg, 3)
	runUntil(t, cfg, 0)
	got := jsonlOf(t, cfg.Output)
	slices.Sort(want)
	slices.Sort(got)
	if len(want) != 8 || !slices.Equal(got, want) {
		t.Fatalf("stopped and resumed: %d URLs %v; uninterrupted: %d %v", len(got), got, len(want), want)
	}
}

// A crawl whose journal folded into snapshots while it ran, then cut —
// its last journal and -o, each at every line — goes on with exactly the
// site's URLs. Past what the last snapshot vouches for, that is what a
// power cut may leave; below it (not something a stop does: the snapshot
// was written after -o was synced), the done log says which pages lost
// their lines. The last journal removed is read as damage. With the seen
// set in memory, and on disk (forSeenSets): a start then stands it on
// the snapshot's seen file and the hashes the journal added since.
func TestPowerCutAfterFoldsLosesNothing(t *testing.T) {
	forSeenSets(t, powerCutAfterFoldsLosesNothing)
}

func powerCutAfterFoldsLosesNothing(t *testing.T, seenMemory int) {
	crawler.FoldJournalEvery(t, 500)
	srv := wirelog.New(t)
	roots, want := powerCutSite(t, srv)
	dir := t.TempDir()
	out, state := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "state")
	cfg := crawler.Config{Roots: roots, MaxTasks: 4, PerHost: 2, State: state, Output: out, SeenMemory: seenMemory}
	crawlGroup(t, 2, cfg).Stats()
	snaps, _ := filepath.Glob(filepath.Join(state, "snapshot.*"))
	if len(snaps) != 1 {
		t.Fatalf("snapshots %v: the journal did not fold", snaps)
	}
	head, _ := os.ReadFile(snaps[0])
	var version, number, vouched int
	fmt.Sscanf(string(head), "I\t%d\t%d\t%d", &version, &number, &vouched)
	journal := lastJournal(t, state)
	saved := t.TempDir()
	copyDir(t, state, saved)
	wholeJournal, _ := os.ReadFile(journal)
	wholeOutput, _ := os.ReadFile(out)
	var cuts []cut
	for i, j := range boundaries(wholeJournal) {
		cuts = append(cuts, cut{journal: j, output: []int{-1, vouched, len(wholeOutput) - 1}[i%3]})
	}
	for _, o := range boundaries(wholeOutput) {
		cuts = append(cuts, cut{journal: -1, output: o})
	}
	// A plain go test, or -short, cuts at every fourth (four is prime to
	// the three outputs a journal cut goes round): go test -tags e2e, as
	// CI runs it, cuts at every one.
	if testing.Short() || !e2e.On() {
		var some []cut
		for i, c := range cuts {
			if i%4 == 0 {
				some = append(some, c)
			}
		}
		cuts = some
	}
	cuts = append(cuts, cut{journal: -1, output: -1, removeLast: true})
	failed := 0
	var mu sync.Mutex
	for _, c := range cuts {
		os.RemoveAll(state)
		copyDir(t, saved, state)
		applyCut(t, journal, wholeJournal, c.journal, false, [2]int{})
		applyCut(t, out, wholeOutput, c.output, false, [2]int{})
		if c.removeLast { // the journal after the snapshot: read as all damage
			os.Remove(journal)
		}
		if _, ok := resumeAfterCut(t, srv, cfg, c, want); !ok {
			mu.Lock()
			failed++
			mu.Unlock()
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d cuts went wrong", failed, len(cuts))
	}
	t.Logf("%d cuts after %d folds (-o vouched for to %d by the snapshot)", len(cuts), number, vouched)
}

// A URL the caps refuse is not written down as to do: the journal holds
// a Q entry for each URL placed, none for those Config.MaxQueryVariants
// or Config.MaxPagesPerHost turned away. (A trap's forty links would
// otherwise be forty entries to screen again at every start.)
func TestACappedURLIsNotWrittenDownAsToDo(t *testing.T) {
	srv := wirelog.New(t)
	root := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			wirelog.Page(w)
			return
		}
		var links []string
		for i := range 40 {
			links = append(links, fmt.Sprintf("/cal?day=%d", i), fmt.Sprintf("/p%d", i))
		}
		wirelog.Page(w, links...)
	}))
	cfg := stateConfig(t, root)
	cfg.NoRobots, cfg.MaxQueryVariants, cfg.MaxPagesPerHost = true, 4, 10
	runUntil(t, cfg, 0)
	if got := len(jsonlOf(t, cfg.Output)); got != 10 {
		t.Fatalf("%d records, want 10: the root, 4 queries and 5 pages", got)
	}
	if q := queuedEntries(t, cfg.State); q != 10 {
		t.Fatalf("the journal holds %d Q entries, want 10: one for each URL placed", q)
	}
}

// queuedEntries counts the Q entries in a state directory's journals.
func queuedEntries(t *testing.T, state string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(state, "journal*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no journal in %s (%v)", state, err)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "Q\t") {
				n++
			}
		}
	}
	return n
}
