package journal_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/crawler/journal"
)

// A URL done twice (a D entry written again, as a crawl killed after its
// batch and before its job ended writes it) counts once: in the URLs done
// and in its host's pages.
func TestAURLDoneTwiceCountsOnce(t *testing.T) {
	dir := t.TempDir()
	opts := journal.Options{Counts: func(string) (string, string) { return "http://a.test", "" }}
	j := openWith(t, dir, settings, opts)
	start(t, j, time.Now(), nil)
	u := "http://a.test/1"
	write(t, j, journal.AppendDone(journal.AppendDone(queued(u, "http://a.test/2"), u), u))
	j.Close()

	j = openWith(t, dir, settings, opts)
	defer j.Close()
	r := start(t, j, time.Now(), nil)
	if !slices.Equal(r.queued, todo("http://a.test/2")) || r.summary.Done != 1 || r.pages["http://a.test"] != 1 {
		t.Fatalf("to do %v, %d done, %d pages on a.test; want page 2, 1 done, 1 page", r.queued, r.summary.Done, r.pages["http://a.test"])
	}
}

// An O entry for bytes before the end of what is counted (left by a start
// that cut -o) is void: it does not take what is counted back to where it
// ends, so -o is not cut there, and the page whose line follows keeps it.
func TestAnEntryBehindWhatIsCountedIsVoid(t *testing.T) {
	dir := t.TempDir()
	state, path := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	u1, u2 := "http://a.test/1", "http://a.test/2"
	j := open(t, state)
	out, _ := journal.Append(path)
	start(t, j, time.Now(), out)
	page(t, j, out, queued(u1, u2), u1)
	page(t, j, out, nil, u2)
	size := out.Size()
	write(t, j, journal.AppendOutput(nil, 0, line(u1), []journal.Line{{URL: u1, Depth: 1, Len: len(line(u1))}}))
	j.Close()
	out.Close()

	j = open(t, state)
	defer j.Close()
	out, _ = journal.Append(path)
	defer out.Close()
	r := start(t, j, time.Now(), out)
	if len(r.queued) != 0 || r.summary.Done != 2 || out.Size() != size || len(j.Notices()) != 0 {
		t.Fatalf("to do %v, %d done, -o %d bytes, notices %q; want nothing to do, 2 done, -o's %d bytes kept, no notice",
			r.queued, r.summary.Done, out.Size(), j.Notices(), size)
	}
}

// A start's X entry that says -o held more than the entries before it
// count (the ones that took it there were damaged since) ends what is
// counted: no O entry after it counts either, -o is cut where the whole
// entries end, saying it does not hold what the journal vouched for, and
// the log is rewritten (a snapshot) so that no later start counts them.
func TestAStartPastWhatIsCountedEndsIt(t *testing.T) {
	dir := t.TempDir()
	state, path := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	u1, u2, u3 := "http://a.test/1", "http://a.test/2", "http://a.test/3"
	j := open(t, state)
	out, _ := journal.Append(path)
	start(t, j, time.Now(), out)
	page(t, j, out, queued(u1, u2, u3), u1)
	kept := out.Size()
	page(t, j, out, nil, u2)
	write(t, j, journal.StartEntry(out.Size(), false)) // a start found -o whole
	page(t, j, out, nil, u3)
	j.Close()
	out.Close()
	// Page 2's O entry is damaged since.
	name := filepath.Join(state, "journal.1")
	b, _ := os.ReadFile(name)
	at := bytes.Index(b, []byte("\t1\t"+u2))
	if at < 0 {
		t.Fatalf("no O entry for page 2 in %q", b)
	}
	b[at+len("\t1\t"+u2)-1] = '9'
	os.WriteFile(name, b, 0o644)

	j = open(t, state)
	defer j.Close()
	out, _ = journal.Append(path)
	defer out.Close()
	r := start(t, j, time.Now(), out)
	if !slices.Equal(r.queued, todo(u2, u3)) || r.summary.Done != 1 || out.Size() != kept {
		t.Fatalf("to do %v, %d done, -o %d bytes; want %v, 1 done, -o cut to page 1's %d bytes", r.queued, r.summary.Done, out.Size(), todo(u2, u3), kept)
	}
	n := j.Notices()
	if len(n) != 2 || !strings.Contains(n[0], "1 damaged line") || !strings.Contains(n[1], "does not hold what the journal vouched for") {
		t.Fatalf("notices %q; want the damaged line copied aside, then -o cut where the journal's vouching ends", n)
	}
	if _, err := os.Stat(filepath.Join(state, "snapshot.1")); err != nil {
		t.Fatalf("the log was not rewritten: %v", err)
	}
}

// -o cut below what the snapshot vouched for, with no O entry in the
// journal after the snapshot (a start folded everything as it began):
// the start's X entry below the snapshot's size takes what is counted
// back to the cut, so that the snapshot it folds into vouches for what
// -o holds, and the next start finds nothing more to make good.
func TestOutputCutBelowASnapshotWithNothingAfterIt(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	u1, u2, u3, u4 := "http://a.test/1", "http://a.test/2", "http://a.test/3", "http://a.test/4"
	j := open(t, state)
	o, _ := journal.Append(out)
	start(t, j, time.Now(), o)
	page(t, j, o, queued(u1, u2, u3, u4), u1)
	at := o.Size()
	page(t, j, o, nil, u2, u3)
	j.Close()
	o.Close()
	foldAtNextStart(t, state, out)

	os.Truncate(out, at) // after page 1's line
	for run := 1; run <= 2; run++ {
		j := open(t, state)
		o, _ := journal.Append(out)
		r := start(t, j, time.Now(), o)
		// pages to do again come back at the depth of their lines, with
		// no redirects followed
		want := append(todo(u4), u2+" 1 0", u3+" 1 0")
		if r.summary.Done != 1 || o.Size() != at || !slices.Equal(r.queued, want) {
			t.Fatalf("run %d: %d done, to do %v, -o %d bytes; want page 1 done, %v, %d bytes",
				run, r.summary.Done, r.queued, o.Size(), want, at)
		}
		if n := j.Notices(); run == 2 && len(n) != 0 {
			t.Fatalf("run 2: notices %q", n)
		}
		j.Close()
		o.Close()
	}
}

// Bytes of -o that cannot be read back when a start cuts them (the file
// was cut meanwhile, under the Output) are cut all the same, and counted
// as no lines: nothing is copied aside as damage, for nothing was read.
func TestOutputBytesThatCannotBeReadAreCutWithoutACopy(t *testing.T) {
	dir := t.TempDir()
	state, path := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	held := append(line("http://other.test/1"), line("http://other.test/2")...)
	os.WriteFile(path, held, 0o644)
	j := open(t, state)
	defer j.Close()
	out, _ := journal.Append(path)
	defer out.Close()
	os.Truncate(path, 0)
	start(t, j, time.Now(), out)
	want := fmt.Sprintf("cut %d bytes after the 0 the journal vouches for (0 whole lines); the journal vouches for none of it", len(held))
	if n := j.Notices(); len(n) != 1 || !strings.HasSuffix(n[0], want) || out.Size() != 0 {
		t.Fatalf("notices %q, -o %d bytes; want one saying %q, -o empty", n, out.Size(), want)
	}
	if _, err := os.Stat(filepath.Join(state, "damaged")); !os.IsNotExist(err) {
		t.Fatalf("something was copied aside: %v", err)
	}
}

// ReadSettings says what a directory's crawl.json holds without opening
// it: nothing in a directory never begun, the settings once begun, and
// an error naming crawl.json when it is not JSON.
func TestReadSettingsWithoutOpening(t *testing.T) {
	dir := t.TempDir()
	if s, ok, err := journal.ReadSettings(dir); ok || err != nil || s.Scope != "" {
		t.Fatalf("an empty directory: %+v, %v, %v; want nothing", s, ok, err)
	}
	mine := settings
	mine.Exclude, mine.Output = "x", "/o.jsonl"
	j := openWith(t, dir, mine, journal.Options{})
	start(t, j, time.Now(), nil)
	j.Close()
	s, ok, err := journal.ReadSettings(dir)
	if !ok || err != nil || len(journal.Differences(s, mine)) != 0 {
		t.Fatalf("read %+v, %v, %v; want %+v", s, ok, err, mine)
	}
	os.WriteFile(filepath.Join(dir, "crawl.json"), []byte("{"), 0o644)
	if _, ok, err := journal.ReadSettings(dir); ok || err == nil || !strings.Contains(err.Error(), "crawl.json") {
		t.Fatalf("a crawl.json that is not JSON: %v, %v", ok, err)
	}
	// a crawl.json that cannot be read: the error is the read's, not a
	// parse of nothing
	other := t.TempDir()
	os.Mkdir(filepath.Join(other, "crawl.json"), 0o755)
	var pathErr *fs.PathError
	if _, ok, err := journal.ReadSettings(other); ok || !errors.As(err, &pathErr) {
		t.Fatalf("a crawl.json that is a directory: %v, %v; want the read's error", ok, err)
	}
}

// Sync has nothing to sync before Begin, nor after Close: it says no
// error, as a crawl that syncs every second may call it at either time.
func TestSyncBeforeBeginAndAfterCloseIsNoError(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	if err := j.Sync(); err != nil {
		t.Fatalf("Sync before Begin: %v", err)
	}
	start(t, j, time.Now(), nil)
	if err := j.Sync(); err != nil {
		t.Fatalf("Sync after Begin: %v", err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := j.Sync(); err != nil {
		t.Fatalf("Sync after Close: %v", err)
	}
}
