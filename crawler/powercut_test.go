package crawler_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"loopkit/crawler"
	"loopkit/internal/e2e"
	"loopkit/internal/wirelog"
	"loopkit/loop"
)

// A power cut leaves each file of a crawl with any prefix of what was
// written to it, or with a tail of zeros: the kernel writes dirty pages
// back in any order, so the journal and -o are cut independently of each
// other. powerCutSite is a small crawl to cut: two hosts, a redirect, a
// link across, links back; 34 URLs.
func powerCutSite(t *testing.T, srv *wirelog.Server) (roots []string, want []string) {
	t.Helper()
	var b string
	a := srv.Host("a", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/":
			links := []string{b + "/", "/r"}
			for i := range 8 {
				links = append(links, fmt.Sprintf("/p%d", i))
			}
			wirelog.Page(w, links...)
		case p == "/r":
			http.Redirect(w, r, "/p3/c9", http.StatusMovedPermanently)
		case p == "/p3/c9":
			wirelog.Page(w, "/")
		case regexp.MustCompile(`^/p[0-7]$`).MatchString(p):
			wirelog.Page(w, p+"/c0", p+"/c1", "/")
		case regexp.MustCompile(`^/p[0-7]/c[01]$`).MatchString(p):
			wirelog.Page(w, "/p0", "/")
		default:
			http.NotFound(w, r)
		}
	}))
	b = srv.Host("b", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/":
			links := []string{a + "/p1"}
			for i := range 6 {
				links = append(links, fmt.Sprintf("/q%d", i))
			}
			wirelog.Page(w, links...)
		case regexp.MustCompile(`^/q[0-5]$`).MatchString(p):
			wirelog.Page(w, "/")
		default:
			http.NotFound(w, r)
		}
	}))
	want = []string{a + "/", a + "/r", a + "/p3/c9", b + "/"}
	for i := range 8 {
		want = append(want, fmt.Sprintf("%s/p%d", a, i), fmt.Sprintf("%s/p%d/c0", a, i), fmt.Sprintf("%s/p%d/c1", a, i))
	}
	for i := range 6 {
		want = append(want, fmt.Sprintf("%s/q%d", b, i))
	}
	sort.Strings(want)
	return []string{a + "/", b + "/"}, want
}

// cut is one way a stop leaves the files: each is cut at a byte (or left
// whole, -1), its tail past the cut zeroed rather than cut, or deleted;
// or a hole is zeroed in it, the bytes after it whole — the kernel wrote
// a later page of the file back, and not an earlier one.
type cut struct {
	journal, output int
	zeroJournal     bool
	zeroOutput      bool
	deleteJournal   bool
	journalHole     [2]int // bytes from..to zeroed; to 0: none
	outputHole      [2]int
	removeLast      bool // the last journal removed, beside a snapshot
}

func (c cut) String() string {
	how := func(at int, zero bool) string {
		switch {
		case at < 0:
			return "whole"
		case zero:
			return fmt.Sprintf("zeroed from %d", at)
		}
		return fmt.Sprintf("cut at %d", at)
	}
	j := how(c.journal, c.zeroJournal)
	if c.deleteJournal || c.removeLast {
		j = "deleted"
	}
	if c.journalHole[1] > 0 {
		j += fmt.Sprintf(", a hole at %d..%d", c.journalHole[0], c.journalHole[1])
	}
	o := how(c.output, c.zeroOutput)
	if c.outputHole[1] > 0 {
		o += fmt.Sprintf(", a hole at %d..%d", c.outputHole[0], c.outputHole[1])
	}
	return "journal " + j + ", -o " + o
}

// lastJournal is the state directory's newest journal file: the one a
// stop leaves open.
func lastJournal(t *testing.T, state string) string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(state, "journal*"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no journal in %s: %v", state, err)
	}
	slices.SortFunc(names, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return names[len(names)-1]
}

// applyCut leaves the file at path as c says, given its whole content.
func applyCut(t *testing.T, path string, whole []byte, at int, zero bool, hole [2]int) {
	t.Helper()
	b := slices.Clone(whole)
	clear(b[hole[0]:hole[1]])
	switch {
	case at < 0:
	case zero:
		clear(b[at:])
	default:
		b = b[:at]
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// boundaries are the offsets after each line of b, and 0.
func boundaries(b []byte) []int {
	out := []int{0}
	for i, c := range b {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// jsonlOf reads the URLs of a JSON Lines file's lines, failing on a line
// that is not a record.
func jsonlOf(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r struct{ URL string }
		if err := json.Unmarshal(line, &r); err != nil || r.URL == "" {
			t.Fatalf("-o holds a line that is not a record: %q", line)
		}
		urls = append(urls, r.URL)
	}
	return urls
}

var (
	resumedNotice = regexp.MustCompile(`resuming the crawl in .*: (\d+) URLs done`)
	cutNotice     = regexp.MustCompile(`: cut (\d+) bytes after the (\d+) the journal vouches for \((\d+) (whole )?lines?`)
	copiedNotice  = regexp.MustCompile(`\((\d+) bytes at byte \d+, in which \d+ URLs can be read\) copied to (\S+);`)
)

// After a stop that leaves the journal and -o cut anywhere — at every
// entry boundary of a small crawl and at random bytes, each file on its
// own, their tails zeroed, or the journal deleted — the crawl run again
// ends with exactly the site's URL set in -o, each URL once; judged from
// the server's log, it fetches again exactly the pages whose lines did
// not survive, once each; and the notice of what was done says the
// number of lines kept. A deleted journal is refused, saying what is
// missing, and goes on (from the roots) only when told to. All of it
// twice: with the seen set in memory, and on disk from the first links
// on (Config.SeenMemory 2), where a link's journal entry is written
// before its page is done though its answer comes later, and a start
// stands the seen set on the journal's files.
func TestPowerCutLosesNothing(t *testing.T) {
	t.Parallel() // its own server and files; it computes while others wait
	forSeenSets(t, powerCutLosesNothing)
}

// forSeenSets runs test with the seen set in memory, then on disk.
func forSeenSets(t *testing.T, test func(t *testing.T, seenMemory int)) {
	t.Run("seen set in memory", func(t *testing.T) { test(t, 0) })
	t.Run("seen set on disk", func(t *testing.T) { test(t, 2) })
}

func powerCutLosesNothing(t *testing.T, seenMemory int) {
	srv := wirelog.New(t)
	roots, want := powerCutSite(t, srv)
	dir := t.TempDir()
	out, state := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "state")
	cfg := crawler.Config{Roots: roots, MaxTasks: 4, PerHost: 2, State: state, Output: out, SeenMemory: seenMemory}

	// The whole crawl, on two loops, so that two loops' batches are
	// written at once and the journal's order is not -o's.
	crawlGroup(t, 2, cfg).Stats()
	if got := slices.Sorted(slices.Values(jsonlOf(t, out))); !slices.Equal(got, want) {
		t.Fatalf("the uninterrupted crawl wrote %d lines, want the site's %d URLs:\n%v", len(got), len(want), got)
	}
	journal := lastJournal(t, state)
	saved := t.TempDir()
	copyDir(t, state, saved)
	wholeJournal, _ := os.ReadFile(journal)
	wholeOutput, _ := os.ReadFile(out)

	rng := rand.New(rand.NewPCG(1, 2))
	var cuts []cut
	jb, ob := boundaries(wholeJournal), boundaries(wholeOutput)
	// Each boundary of one file, with the other whole, empty or cut at
	// a random byte, in turn.
	other := func(i int, whole []byte) int {
		return [3]int{-1, 0, rng.IntN(len(whole) + 1)}[i%3]
	}
	for i, j := range jb {
		cuts = append(cuts, cut{journal: j, output: other(i, wholeOutput)})
	}
	for i, o := range ob {
		cuts = append(cuts, cut{journal: other(i, wholeJournal), output: o})
	}
	hole := func(whole []byte) [2]int {
		from := rng.IntN(len(whole))
		return [2]int{from, min(len(whole), from+1+rng.IntN(512))}
	}
	for i := range 40 {
		c := cut{journal: -1, output: -1}
		if i%3 != 1 {
			c.journalHole = hole(wholeJournal)
		}
		if i%3 != 0 {
			c.outputHole = hole(wholeOutput)
		}
		cuts = append(cuts, c)
	}
	for range 60 {
		cuts = append(cuts, cut{journal: rng.IntN(len(wholeJournal) + 1), output: rng.IntN(len(wholeOutput) + 1),
			zeroJournal: rng.IntN(2) == 0, zeroOutput: rng.IntN(2) == 0})
	}
	// A learner's first go test, or -short, cuts at a sample: every tenth
	// boundary and every fourth hole and random cut (their kinds go round
	// in threes, and four is prime to three, so the sample still meets
	// each kind). go test -tags e2e, as CI runs it, cuts at every one.
	if testing.Short() || !e2e.On() {
		var some []cut
		for i, c := range cuts {
			if i%10 == 0 || i >= len(cuts)-100 && i%4 == 0 {
				some = append(some, c)
			}
		}
		cuts = some
	}
	cuts = append(cuts, cut{journal: -1, output: -1, deleteJournal: true})

	lost, failed := 0, 0
	for _, c := range cuts {
		os.RemoveAll(state)
		copyDir(t, saved, state)
		applyCut(t, journal, wholeJournal, c.journal, c.zeroJournal, c.journalHole)
		applyCut(t, out, wholeOutput, c.output, c.zeroOutput, c.outputHole)
		if c.deleteJournal {
			os.Remove(journal)
		}
		l, ok := resumeAfterCut(t, srv, cfg, c, want)
		lost += l
		if !ok {
			failed++
		}
		if failed > 0 && !testing.Verbose() && failed >= 10 {
			break
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d cuts went wrong; %d URLs lost over them", failed, len(cuts), lost)
	}
	t.Logf("%d cuts, the crawl resumed exactly after each", len(cuts))
}

// resumeAfterCut runs the crawl again on the files c left, and checks it
// ended as an uninterrupted crawl would have. It reports how many of the
// site's URLs -o lacks at the end, and whether all went right.
func resumeAfterCut(t *testing.T, srv *wirelog.Server, cfg crawler.Config, c cut, want []string) (lost int, ok bool) {
	t.Helper()
	var notices []string
	cfg.OnNotice = func(msg string) { notices = append(notices, msg) }
	arrived := len(srv.Arrivals())
	before, _ := os.ReadFile(cfg.Output)
	if smallQueue(c) {
		cfg.QueueMemory = 3 // a start takes 3 URLs in; the rest are read back as the crawl goes
	}
	lg, err := loop.NewGroup(1+rng2(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lg.Close()
	g, err := crawler.NewGroup(lg, cfg)
	if c.deleteJournal {
		if err == nil {
			g.Close()
			t.Errorf("%v: a state directory without its journal was taken as a crawl to go on with", c)
			return 0, false
		}
		if !strings.Contains(err.Error(), "journal") {
			t.Errorf("%v: refused with %q, which does not say the journal is missing", c, err)
			return 0, false
		}
		cfg.StateReuse = true
		if g, err = crawler.NewGroup(lg, cfg); err != nil {
			t.Errorf("%v: with StateReuse: %v", c, err)
			return 0, false
		}
	} else if err != nil {
		t.Errorf("%v: %v", c, err)
		return 0, false
	}
	if err := g.Crawl(); err != nil {
		t.Errorf("%v: the resumed crawl: %v", c, err)
		return 0, false
	}
	got := jsonlOf(t, cfg.Output)
	counts := map[string]int{}
	for _, u := range got {
		counts[u]++
	}
	ok = true
	for _, u := range want {
		if counts[u] == 0 {
			lost++
		}
	}
	dup := 0
	for _, n := range counts {
		dup += n - 1
	}
	if lost > 0 || dup > 0 || len(counts) != len(want) {
		t.Errorf("%v: -o ends with %d lines, %d distinct URLs of %d; %d lost, %d twice; notices %q",
			c, len(got), len(counts), len(want), lost, dup, notices)
		return lost, false
	}
	// From the server's side: the pages fetched again are those whose
	// lines did not survive, each once.
	fetched := map[string]int{}
	for _, a := range srv.Arrivals()[arrived:] {
		if a.Path != "/robots.txt" {
			fetched[a.Path+"@"+a.Host]++
		}
	}
	again := 0
	for k, n := range fetched {
		if n > 1 {
			t.Errorf("%v: %s fetched %d times by the resumed crawl", c, k, n)
			ok = false
		}
		again += n
	}
	// What the notices say is true: what was cut from -o, what was kept
	// of it, what was copied aside, what was done.
	after, _ := os.ReadFile(cfg.Output)
	vouched := len(before)
	for _, n := range notices {
		if m := cutNotice.FindStringSubmatch(n); m != nil {
			cutBytes, _ := strconv.Atoi(m[1])
			vouched, _ = strconv.Atoi(m[2])
			lines, _ := strconv.Atoi(m[3])
			if vouched+cutBytes != len(before) || bytes.Count(before[vouched:], []byte("\n")) != lines {
				t.Errorf("%v: %q, but -o held %d bytes, %d lines past %d", c, n, len(before), bytes.Count(before[min(vouched, len(before)):], []byte("\n")), vouched)
				ok = false
			}
		}
		if m := copiedNotice.FindStringSubmatch(n); m != nil {
			size, _ := strconv.Atoi(m[1])
			if st, err := os.Stat(m[2]); err != nil || st.Size() != int64(size) {
				t.Errorf("%v: %q, but the copy is not there with %d bytes: %v", c, n, size, err)
				ok = false
			}
		}
	}
	if vouched > len(after) || !bytes.Equal(after[:vouched], before[:vouched]) {
		t.Errorf("%v: the %d bytes of -o the resumed crawl kept were changed", c, vouched)
		return 0, false
	}
	kept := bytes.Count(before[:vouched], []byte("\n"))
	if kept+again != len(want) {
		t.Errorf("%v: %d lines kept and %d pages fetched again, for the site's %d URLs; notices %q", c, kept, again, len(want), notices)
		ok = false
	}
	for _, n := range notices {
		if m := resumedNotice.FindStringSubmatch(n); m != nil {
			if done, _ := strconv.Atoi(m[1]); done != kept {
				t.Errorf("%v: the notice says %d URLs done, but %d lines were kept (%d fetched again); notices %q", c, done, kept, again, notices)
				ok = false
			}
		}
	}
	return 0, ok
}

// rng2 alternates the resumed crawl between one loop and two.
func rng2(c cut) int { return (c.journal + c.output) & 1 }

// smallQueue has one resumed crawl in two keep only a few URLs in memory,
// so that most of what it has to do waits in its state directory, read
// back as it goes.
func smallQueue(c cut) bool { return (c.journal+c.output)>>1&1 == 1 }

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}
