package journal_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/crawler/journal"
)

// openFolding opens the crawl in dir with a fold after every write, and
// counts that give every URL to one host and one path.
func openFolding(t *testing.T, dir string) *journal.Journal {
	t.Helper()
	opts := journal.Options{FoldMin: 1, Counts: func(string) (string, string) { return "http://a.test", "http://a.test/s" }}
	return openWith(t, dir, settings, opts)
}

func waitFold(t *testing.T, j *journal.Journal) {
	t.Helper()
	if err := j.WaitFold(); err != nil {
		t.Fatal(err)
	}
}

// A snapshot keeps what the journals said: the pages and queries done
// count towards their host and path, and an ended crawl stays ended. A
// robots.txt or a hold already over is not copied into it: a start that
// believes it earlier than the fold does not hear of them.
func TestAFoldKeepsCountsAndTheEnd(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	j := openFolding(t, dir)
	start(t, j, now, nil)
	u1, u2 := "http://a.test/s?q=1", "http://a.test/s?q=2"
	b := journal.AppendDone(journal.AppendDone(queued(u1, u2), u1), u2)
	b = journal.AppendRobots(b, "http://a.test", now.Add(-time.Minute), []byte("over"))
	b = journal.AppendHold(b, "a.test", now.Add(-time.Minute))
	write(t, j, b)
	waitFold(t, j)
	if err := j.End(); err != nil {
		t.Fatal(err)
	}
	waitFold(t, j)
	j.Close()
	if _, err := os.Stat(filepath.Join(dir, "journal.1")); err == nil {
		t.Fatal("no fold: journal.1 is still there")
	}

	j = openFolding(t, dir)
	defer j.Close()
	variants := map[string]int{}
	r := replayed{robots: map[string]string{}, holds: map[string]time.Time{}, pages: map[string]int{}}
	s, err := j.Replay(now.Add(-time.Hour), journal.Visitor{
		Pages:    func(host string, n int) { r.pages[host] = n },
		Variants: func(path string, n int) { variants[path] = n },
		Queued:   func(u string, _, _ int32) { r.queued = append(r.queued, u) },
		Robots:   func(origin string, _ time.Time, body []byte) { r.robots[origin] = string(body) },
		Hold:     func(authority string, until time.Time) { r.holds[authority] = until },
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Finished || s.Done != 2 || len(r.queued) != 0 || r.pages["http://a.test"] != 2 || variants["http://a.test/s"] != 2 {
		t.Fatalf("finished %v, %d done, to do %q, pages %v, variants %v; want finished, 2 done, none to do, 2 pages and 2 variants",
			s.Finished, s.Done, r.queued, r.pages, variants)
	}
	if len(r.robots) != 0 || len(r.holds) != 0 {
		t.Fatalf("robots %v, holds %v: over before the fold, and still in its snapshot", r.robots, r.holds)
	}
}

// An O entry waiting for the one before it (two loops' batches) when a
// fold comes is kept in the snapshot: once the gap is filled after the
// fold, both lines count.
func TestAFoldKeepsAnEntryWaitingForAGap(t *testing.T) {
	dir := t.TempDir()
	state, path := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	j := openFolding(t, state)
	out, _ := journal.Append(path)
	start(t, j, time.Now(), out)
	u1, u2 := "http://a.test/1", "http://a.test/2"
	write(t, j, queued(u1, u2))
	waitFold(t, j)
	line1, line2 := line(u1), line(u2)
	from1, _ := out.Write(line1)
	from2, _ := out.Write(line2)
	write(t, j, journal.AppendOutput(nil, from2, line2, []journal.Line{{URL: u2, Depth: 1, Len: len(line2)}}))
	waitFold(t, j)
	write(t, j, journal.AppendOutput(nil, from1, line1, []journal.Line{{URL: u1, Depth: 1, Len: len(line1)}}))
	waitFold(t, j)
	j.Close()
	out.Close()

	j = openFolding(t, state)
	defer j.Close()
	out, _ = journal.Append(path)
	defer out.Close()
	r := start(t, j, time.Now(), out)
	if size := int64(len(line1) + len(line2)); len(r.queued) != 0 || r.summary.Done != 2 || out.Size() != size {
		t.Fatalf("to do %v, %d done, -o %d bytes; want none, 2 done, %d bytes", r.queued, r.summary.Done, out.Size(), size)
	}
}

// A fold, like a start, counts no record after a damaged entry: the page
// is to do again, and what it queued before the damage is kept.
func TestAFoldCountsNothingAfterDamage(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	start(t, j, time.Now(), nil)
	damaged := journal.AppendQueued(nil, "http://a.test/2", 1, 10)
	damaged[2] = '7' // the checksum no longer matches
	b := append(queued("http://a.test/1"), damaged...)
	write(t, j, journal.AppendDone(b, "http://a.test/1"))
	j.Close()

	j = openFolding(t, dir)
	start(t, j, time.Now(), nil) // copies the damage aside; the fold reads it again
	write(t, j, queued("http://a.test/3"))
	waitFold(t, j)
	j.Close()
	if names, _ := filepath.Glob(filepath.Join(dir, "snapshot.*")); len(names) == 0 {
		t.Fatal("no fold: no snapshot")
	}

	j = open(t, dir)
	defer j.Close()
	r := start(t, j, time.Now(), nil)
	if want := todo("http://a.test/1", "http://a.test/3"); !slices.Equal(r.queued, want) || r.summary.Done != 0 {
		t.Fatalf("to do %v, %d done; want %v, none done", r.queued, r.summary.Done, want)
	}
}

// What a fold stopped half way leaves behind — the snapshot before the
// last, a journal the last snapshot holds — is not read: a start goes on
// from the last snapshot and the journals after it.
func TestAStartReadsOnlyTheLastSnapshotAndTheJournalsAfterIt(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	want := foldCrawl(t, state, out, 60)
	snaps, _ := filepath.Glob(filepath.Join(state, "snapshot.*"))
	var number int
	fmt.Sscanf(filepath.Ext(snaps[0]), ".%d", &number)
	if number < 2 {
		t.Fatalf("snapshot.%d: want a crawl folded more than once", number)
	}
	stale := journal.AppendQueued(nil, "http://a.test/stale", 1, 10)
	os.WriteFile(filepath.Join(state, "snapshot.1"), []byte("an older snapshot\n"), 0o644)
	os.WriteFile(filepath.Join(state, fmt.Sprintf("journal.%d", number)), stale, 0o644)
	j := open(t, state)
	defer j.Close()
	o, _ := journal.Append(out)
	defer o.Close()
	r := start(t, j, time.Now(), o)
	if !slices.Equal(r.queued, want) || len(j.Notices()) != 0 {
		t.Fatalf("to do %v, notices %q;\nwant %v, no notice", r.queued, j.Notices(), want)
	}
	if _, err := os.Stat(filepath.Join(state, "snapshot.1")); !os.IsNotExist(err) {
		t.Fatalf("the older snapshot is still there after the start: %v", err)
	}
}

// A snapshot with no journal after it had one removed (a fold starts the
// next journal before it writes the snapshot): the start says so.
func TestASnapshotWithoutAJournalAfterItIsSaid(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	foldCrawl(t, state, out, 60)
	journals, _ := filepath.Glob(filepath.Join(state, "journal.*"))
	for _, f := range journals {
		os.Remove(f)
	}
	snaps, _ := filepath.Glob(filepath.Join(state, "snapshot.*"))
	var number int
	fmt.Sscanf(filepath.Ext(snaps[0]), ".%d", &number)
	j := open(t, state)
	defer j.Close()
	o, _ := journal.Append(out)
	defer o.Close()
	start(t, j, time.Now(), o)
	if n := j.Notices(); len(n) < 1 || !strings.Contains(n[0], fmt.Sprintf("journal.%d is not there", number+1)) {
		t.Fatalf("notices %q", n)
	}
}

// A fresh directory's -o is new to the crawl.
func TestAFreshCrawlsOutputIsNew(t *testing.T) {
	j := open(t, t.TempDir())
	defer j.Close()
	if !j.Fresh() || !j.NewOutput() {
		t.Fatalf("fresh %v, new output %v: want both", j.Fresh(), j.NewOutput())
	}
}

// Going on with another -o, the lines the first file holds past what the
// journal vouches for (written as the crawl stopped) are cut from it:
// their pages are fetched again into the new file, and each page's line
// is in one file only.
func TestAnotherOutputCutsTheFirstFilesTail(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	first, second := filepath.Join(dir, "first.jsonl"), filepath.Join(dir, "second.jsonl")
	s1, s2 := settings, settings
	s1.Output, s2.Output = first, second
	j := openWith(t, state, s1, journal.Options{})
	out, _ := journal.Append(first)
	start(t, j, time.Now(), out)
	page(t, j, out, queued("http://a.test/", "http://a.test/1"), "http://a.test/")
	vouched := out.Size()
	out.Write(line("http://a.test/1")) // its entry never written
	j.Close()
	out.Close()

	j = openWith(t, state, s2, journal.Options{Reuse: true})
	defer j.Close()
	out, _ = journal.Append(second)
	defer out.Close()
	r := start(t, j, time.Now(), out)
	if !slices.Equal(r.queued, todo("http://a.test/1")) {
		t.Fatalf("to do %v, want page 1", r.queued)
	}
	if st, err := os.Stat(first); err != nil || st.Size() != vouched {
		t.Fatalf("the first file: %v, %v; want %d bytes, what was vouched for", st.Size(), err, vouched)
	}
	if n := j.Notices(); len(n) != 2 || !strings.Contains(n[1], "fetched again, into "+second) {
		t.Fatalf("notices %q", n)
	}
}

// A fold that counts no O entry (a crawl whose -o is no file: its pages
// are done by D entries) leaves no done log: there is nothing for it to
// say whose lines are where.
func TestAFoldWithoutLinesLeavesNoDoneLog(t *testing.T) {
	dir := t.TempDir()
	j := openFolding(t, dir)
	start(t, j, time.Now(), nil)
	write(t, j, journal.AppendDone(queued("http://a.test/1", "http://a.test/2"), "http://a.test/1"))
	waitFold(t, j)
	j.Close()
	if _, err := os.Stat(filepath.Join(dir, "snapshot.1")); err != nil {
		t.Fatalf("no fold: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "done")); !os.IsNotExist(err) {
		t.Fatalf("a done log of a crawl without lines: %v", err)
	}
}
