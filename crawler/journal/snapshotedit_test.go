package journal_test

import (
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/crawler/journal"
)

// smallSnapshot writes a crawl of one page done and three to do, with a
// robots.txt, and folds it into snapshot.1 as the next start begins. It
// returns the snapshot's path.
func smallSnapshot(t *testing.T, state, out string) string {
	t.Helper()
	j := open(t, state)
	o, _ := journal.Append(out)
	start(t, j, time.Now(), o)
	b := queued("http://a.test/1", "http://a.test/2", "http://a.test/3", "http://a.test/4")
	b = journal.AppendRobots(b, "http://a.test", time.Now().Add(time.Hour), []byte("User-agent: *\n"))
	page(t, j, o, b, "http://a.test/1")
	j.Close()
	o.Close()
	foldAtNextStart(t, state, out)
	path := filepath.Join(state, "snapshot.1")
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// reseal gives an entry (without its checksum and newline) its checksum.
func reseal(entry string) string {
	return fmt.Sprintf("%s\t%08x\n", entry, crc32.ChecksumIEEE([]byte(entry)))
}

// A snapshot edited into entries that are each whole, but not what a
// snapshot holds — a header of another version, or none, a damaged entry
// before its queue, an entry other than a URL to do in its queue — is
// refused, saying why, rather than read as part of the crawl.
func TestASnapshotOfTheWrongShapeIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(lines []string) []string // the snapshot's lines, each with its newline
		says string
	}{
		{"version 3", func(l []string) []string {
			f := strings.Split(l[0], "\t")
			f[1] = "3"
			l[0] = reseal(strings.Join(f[:len(f)-1], "\t"))
			return l
		}, "no header of this version"},
		{"no header", func(l []string) []string { return l[1:] }, "no header of this version"},
		{"a damaged entry before the queue", func(l []string) []string {
			l[1] = strings.Replace(l[1], "\t", "\tx", 1)
			return l
		}, "a damaged entry at byte"},
		{"a page sent in the queue", func(l []string) []string {
			q := slicesIndexPrefix(l, "Q\t")
			return append(l[:q+1:q+1], append([]string{string(journal.AppendSent(nil, "http://a.test/9"))}, l[q+1:]...)...)
		}, "an entry out of place in its queue"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
			snap := smallSnapshot(t, state, out)
			b, _ := os.ReadFile(snap)
			lines := strings.SplitAfter(string(b), "\n")
			lines = tc.edit(lines[:len(lines)-1])
			os.WriteFile(snap, []byte(strings.Join(lines, "")), 0o644)
			if err := replayErr(t, state, out); err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "damaged") {
				t.Fatalf("replay: %v; want it refused as damaged, saying %q", err, tc.says)
			}
		})
	}
}

// slicesIndexPrefix is the index of the first of lines that starts with
// prefix.
func slicesIndexPrefix(lines []string, prefix string) int {
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return i
		}
	}
	panic("no line starts with " + prefix)
}

// -o cut below the snapshot twice, the second time lower, with no page
// done between: the first start's cut is in the done log, so the second
// start does again only the pages whose lines the second cut took, and
// not again the page the first cut took (to do already): each page to
// do is handed out once, and the pages done are counted right.
func TestOutputCutBelowTheSnapshotTwiceDoesEachPageOnce(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	u := func(i int) string { return fmt.Sprintf("http://a.test/%d", i) }
	j := open(t, state)
	o, _ := journal.Append(out)
	start(t, j, time.Now(), o)
	page(t, j, o, queued(u(1), u(2), u(3), u(4)), u(1))
	one := o.Size()
	page(t, j, o, nil, u(2), u(3))
	three := o.Size()
	page(t, j, o, nil, u(4))
	j.Close()
	o.Close()
	foldAtNextStart(t, state, out)

	for _, c := range []struct {
		at    int64
		done  int
		todo  []string
		again string // the notice's count
	}{
		{three, 3, []string{u(4) + " 1 0"}, "the 1 page whose"},
		{one, 1, []string{u(4) + " 1 0", u(2) + " 1 0", u(3) + " 1 0"}, "the 2 pages whose"},
	} {
		os.Truncate(out, c.at)
		j := open(t, state)
		o, _ := journal.Append(out)
		r := start(t, j, time.Now(), o)
		n := j.Notices()
		j.Close()
		o.Close()
		if len(n) != 1 || !strings.Contains(n[0], c.again) {
			t.Fatalf("-o cut at %d: notices %q; want one saying %q", c.at, n, c.again)
		}
		slices.Sort(r.queued)
		slices.Sort(c.todo)
		if r.summary.Done != c.done || !slices.Equal(r.queued, c.todo) {
			t.Fatalf("-o cut at %d: %d done, to do %v; want %d done, %v", c.at, r.summary.Done, r.queued, c.done, c.todo)
		}
	}
}

// A done log with an entry missing from its middle cannot say whose
// lines were in the gap: -o cut below the snapshot is then refused,
// saying so, rather than going on with pages lost.
func TestADoneLogWithAGapIsRefused(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	ends := threePagesFolded(t, state, out)

	done := filepath.Join(state, "done")
	b, _ := os.ReadFile(done)
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) != 4 { // three entries, and what follows the last newline
		t.Fatalf("the done log holds %q; want three O entries", b)
	}
	os.WriteFile(done, []byte(lines[0]+lines[2]), 0o644)
	os.Truncate(out, ends[0])
	if err := replayErr(t, state, out); err == nil || !strings.Contains(err.Error(), "the done log") {
		t.Fatalf("replay: %v; want it refused for want of the done log's entries", err)
	}
}

// threePagesFolded writes a crawl of three pages done, each in its own
// batch (an O entry each), and folds it into snapshot.1 as the next start
// begins. It returns where each page's line ends in -o.
func threePagesFolded(t *testing.T, state, out string) (ends [3]int64) {
	t.Helper()
	j := open(t, state)
	o, _ := journal.Append(out)
	start(t, j, time.Now(), o)
	write(t, j, queued("http://a.test/1", "http://a.test/2", "http://a.test/3"))
	for i := range ends {
		page(t, j, o, nil, fmt.Sprintf("http://a.test/%d", i+1))
		ends[i] = o.Size()
	}
	j.Close()
	o.Close()
	foldAtNextStart(t, state, out)
	return ends
}

// -o cut below the snapshot, with a line below the cut changed too: what
// is kept ends before the first line that does not match what the done
// log vouched for, and the pages from there are done again.
func TestOutputCutBelowTheSnapshotKeepsOnlyTheLinesThatMatch(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	ends := threePagesFolded(t, state, out)
	b, _ := os.ReadFile(out)
	b[ends[0]+3] = 'X' // in page 2's line
	os.WriteFile(out, b[:ends[2]-5], 0o644)

	j := open(t, state)
	defer j.Close()
	o, _ := journal.Append(out)
	defer o.Close()
	r := start(t, j, time.Now(), o)
	if want := []string{"http://a.test/2 1 0", "http://a.test/3 1 0"}; r.summary.Done != 1 || o.Size() != ends[0] || !slices.Equal(r.queued, want) {
		t.Fatalf("%d done, to do %v, -o %d bytes; want page 1 done, %v, -o cut to page 1's %d bytes", r.summary.Done, r.queued, o.Size(), want, ends[0])
	}
}

// foldAtNextStart starts the crawl in state again, with -o at out, and
// waits until that start has folded every journal into a snapshot.
func foldAtNextStart(t *testing.T, state, out string) {
	t.Helper()
	j, err := journal.Open(state, settings, journal.Options{FoldMin: 1}) // folds as it begins
	if err != nil {
		t.Fatal(err)
	}
	o, _ := journal.Append(out)
	start(t, j, time.Now(), o)
	if err := j.WaitFold(); err != nil {
		t.Fatal(err)
	}
	j.Close()
	o.Close()
}
