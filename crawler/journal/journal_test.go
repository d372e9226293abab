package journal_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/crawler/journal"
	"loopkit/netpoll"
)

var settings = journal.Settings{Roots: []string{"http://a.test/"}, Scope: "strict", Robots: true, MaxRedirect: 10}

func open(t *testing.T, dir string) *journal.Journal {
	t.Helper()
	j, err := journal.Open(dir, settings, false)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// replayed is what a replay told.
type replayed struct {
	seen, queued []string
	robots       map[string]string
	holds        map[string]time.Time
	summary      journal.Summary
}

func replay(t *testing.T, j *journal.Journal, now time.Time, done ...string) replayed {
	t.Helper()
	r := replayed{robots: map[string]string{}, holds: map[string]time.Time{}}
	var fromOutput func(func(string)) error
	if len(done) > 0 {
		fromOutput = func(yield func(string)) error {
			for _, u := range done {
				yield(u)
			}
			return nil
		}
	}
	s, err := j.Replay(now, journal.Visitor{
		Seen: func(u string) { r.seen = append(r.seen, u) },
		Queued: func(u string, depth, redirects int32) {
			r.queued = append(r.queued, fmt.Sprintf("%s %d %d", u, depth, redirects))
		},
		Robots: func(origin string, _ time.Time, body []byte) { r.robots[origin] = string(body) },
		Hold:   func(authority string, until time.Time) { r.holds[authority] = until },
	}, fromOutput)
	if err != nil {
		t.Fatal(err)
	}
	r.summary = s
	slices.Sort(r.seen)
	return r
}

// What was queued and not done comes back in the order it was found,
// each once; everything queued or done is seen; the latest robots.txt
// and hold of each host come back while they last.
func TestReplayGivesBackWhatIsLeft(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	j := open(t, dir)
	replay(t, j, now)
	var b []byte
	b = journal.AppendQueued(b, "http://a.test/", 0, 10)
	b = journal.AppendQueued(b, "http://a.test/1", 1, 10)
	b = journal.AppendRobots(b, "http://a.test", now.Add(time.Hour), []byte("User-agent: *\nDisallow: /old\n"))
	b = journal.AppendRobots(b, "http://b.test", now.Add(-time.Minute), []byte("expired"))
	b = journal.AppendDone(b, "http://a.test/")
	b = journal.AppendQueued(b, "http://a.test/2", 1, 9)
	b = journal.AppendQueued(b, "http://a.test/1", 2, 10) // found again on another loop
	b = journal.AppendHold(b, "a.test", now.Add(time.Minute))
	b = journal.AppendHold(b, "c.test", now.Add(-time.Second))
	if err := j.Write(b); err != nil {
		t.Fatal(err)
	}
	j.Close()

	j = open(t, dir)
	defer j.Close()
	if !j.Resumed() {
		t.Fatal("a directory with a crawl in it is not a resumed one")
	}
	r := replay(t, j, now)
	if want := []string{"http://a.test/1 1 10", "http://a.test/2 1 9"}; !slices.Equal(r.queued, want) {
		t.Fatalf("to do %v, want %v", r.queued, want)
	}
	if want := []string{"http://a.test/", "http://a.test/1", "http://a.test/2"}; !slices.Equal(r.seen, want) {
		t.Fatalf("seen %v, want %v", r.seen, want)
	}
	if len(r.robots) != 1 || !strings.Contains(r.robots["http://a.test"], "Disallow: /old") {
		t.Fatalf("robots %v, want a.test's and not the expired one", r.robots)
	}
	if len(r.holds) != 1 || r.holds["a.test"].IsZero() {
		t.Fatalf("holds %v, want a.test's only", r.holds)
	}
	if r.summary.Done != 1 || r.summary.ToDo != 2 {
		t.Fatalf("summary %+v", r.summary)
	}
}

// The -o file's URLs are done too: with -o, no D entry is written.
func TestOutputsURLsAreDone(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	replay(t, j, time.Now())
	j.Write(journal.AppendQueued(journal.AppendQueued(nil, "http://a.test/", 0, 10), "http://a.test/1", 1, 10))
	j.Close()
	j = open(t, dir)
	defer j.Close()
	r := replay(t, j, time.Now(), "http://a.test/")
	if want := []string{"http://a.test/1 1 10"}; !slices.Equal(r.queued, want) {
		t.Fatalf("to do %v, want %v", r.queued, want)
	}
}

// A tail torn by a stop in the middle of a write, or damaged, is cut at
// the last whole entry, with a notice; what follows is appended after it.
func TestDamagedTailIsCut(t *testing.T) {
	for _, tc := range []struct {
		name string
		tail func([]byte) []byte
	}{
		{"torn", func(whole []byte) []byte { return whole[:len(whole)-7] }},
		{"bad checksum", func(whole []byte) []byte { return append(whole[:len(whole)-3], 'x', 'x', '\n') }},
		{"zeros", func([]byte) []byte { return make([]byte, 64) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			j := open(t, dir)
			replay(t, j, time.Now())
			j.Write(journal.AppendQueued(nil, "http://a.test/1", 1, 10))
			j.Write(tc.tail(journal.AppendQueued(nil, "http://a.test/2", 1, 10)))
			j.Close()

			j = open(t, dir)
			r := replay(t, j, time.Now())
			if want := []string{"http://a.test/1 1 10"}; !slices.Equal(r.queued, want) {
				t.Fatalf("to do %v, want %v", r.queued, want)
			}
			if n := j.Notices(); len(n) != 1 || !strings.Contains(n[0], "after the last whole entry") {
				t.Fatalf("notices %q, want one about the cut", n)
			}
			j.Write(journal.AppendQueued(nil, "http://a.test/3", 1, 10))
			j.Close()
			j = open(t, dir)
			defer j.Close()
			r = replay(t, j, time.Now())
			if want := []string{"http://a.test/1 1 10", "http://a.test/3 1 10"}; !slices.Equal(r.queued, want) {
				t.Fatalf("after the cut and a write: to do %v, want %v", r.queued, want)
			}
		})
	}
}

// A damaged entry with whole ones after it is not a torn tail (a stop
// tears only the end): it is skipped with a notice, the entries after it
// are kept, and the journal is rewritten without it, so the next start
// says nothing more. A torn tail after it is still cut.
func TestDamagedEntryInTheMiddleIsSkipped(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	replay(t, j, time.Now())
	damaged := journal.AppendQueued(nil, "http://a.test/2", 1, 10)
	damaged[2] = '7' // its depth, 1, read as 7: the checksum no longer matches
	j.Write(journal.AppendQueued(nil, "http://a.test/1", 1, 10))
	j.Write(damaged)
	j.Write(journal.AppendQueued(nil, "http://a.test/3", 1, 10))
	j.Write(journal.AppendDone(nil, "http://a.test/1"))
	j.Write(journal.AppendQueued(nil, "http://a.test/4", 1, 10)[:9]) // torn
	j.Close()

	j = open(t, dir)
	r := replay(t, j, time.Now())
	if want := []string{"http://a.test/3 1 10"}; !slices.Equal(r.queued, want) {
		t.Fatalf("to do %v, want %v", r.queued, want)
	}
	n := j.Notices()
	if !slices.ContainsFunc(n, func(s string) bool { return strings.Contains(s, "skipped 1 damaged entries") }) ||
		!slices.ContainsFunc(n, func(s string) bool { return strings.Contains(s, "after the last whole entry") }) {
		t.Fatalf("notices %q, want one about the skipped entry and one about the torn tail", n)
	}
	j.Close()

	j = open(t, dir)
	defer j.Close()
	r = replay(t, j, time.Now())
	if want := []string{"http://a.test/3 1 10"}; !slices.Equal(r.queued, want) {
		t.Fatalf("after the rewrite: to do %v, want %v", r.queued, want)
	}
	if n := j.Notices(); len(n) != 0 {
		t.Fatalf("after the rewrite: notices %q, want none", n)
	}
}

// A directory holding another crawl is refused, saying how it differs,
// unless reuse says to go on; then the new settings are kept.
func TestOtherCrawlIsRefused(t *testing.T) {
	dir := t.TempDir()
	open(t, dir).Close()
	other := settings
	other.Roots = []string{"http://b.test/"}
	other.Scope = "lenient"
	_, err := journal.Open(dir, other, false)
	if !errors.Is(err, journal.ErrOtherCrawl) || !strings.Contains(err.Error(), "roots was [http://a.test/], now [http://b.test/]") ||
		!strings.Contains(err.Error(), "scope was strict, now lenient") {
		t.Fatalf("another crawl's settings: %v", err)
	}
	j, err := journal.Open(dir, other, true)
	if err != nil {
		t.Fatalf("with reuse: %v", err)
	}
	if n := j.Notices(); len(n) != 1 || !strings.Contains(n[0], "going on with other settings") {
		t.Fatalf("notices %q", n)
	}
	j.Close()
	if j, err := journal.Open(dir, other, false); err != nil {
		t.Fatalf("the reused settings were not kept: %v", err)
	} else {
		j.Close()
	}
}

// Two processes cannot work on one directory: the second is refused while
// the first holds it, and may go once it has let go.
func TestOneProcessPerDirectory(t *testing.T) {
	dir := t.TempDir()
	first := open(t, dir)
	if _, err := journal.Open(dir, settings, false); !errors.Is(err, journal.ErrInUse) {
		t.Fatalf("second open: %v, want ErrInUse", err)
	}
	first.Close()
	open(t, dir).Close()
}

// A full disk fails the write with an error that says so; the journal
// that follows is still read up to its last whole entry.
func TestFullDiskIsAnError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	dir := t.TempDir()
	open(t, dir).Close()
	if err := os.Remove(filepath.Join(dir, "journal")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/full", filepath.Join(dir, "journal")); err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(dir, settings, false)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	err = j.Write(journal.AppendQueued(nil, "http://a.test/1", 1, 10))
	if !netpoll.IsNoSpace(err) {
		t.Fatalf("write to a full disk: %v, want no space", err)
	}
}

// A journal whose dead entries are most of it is rewritten with the live
// ones, and replays the same.
func TestMostlyDeadJournalIsRewritten(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	replay(t, j, time.Now())
	var b []byte
	for i := range 100 {
		u := fmt.Sprintf("http://a.test/%d", i)
		b = journal.AppendQueued(b, u, 1, 10)
		b = journal.AppendQueued(b, u, 2, 10) // found again, on another loop
		if i < 90 {
			b = journal.AppendDone(b, u)
		}
	}
	j.Write(b)
	j.Close()
	before, _ := os.Stat(filepath.Join(dir, "journal"))

	j = open(t, dir)
	first := replay(t, j, time.Now())
	j.Close()
	after, _ := os.Stat(filepath.Join(dir, "journal"))
	if after.Size()*3 > before.Size()*2 {
		t.Fatalf("journal %d bytes, then %d: not rewritten", before.Size(), after.Size())
	}
	j = open(t, dir)
	defer j.Close()
	second := replay(t, j, time.Now())
	if !slices.Equal(first.queued, second.queued) || !slices.Equal(first.seen, second.seen) || len(second.queued) != 10 {
		t.Fatalf("before the rewrite: %d to do, %d seen; after: %d, %d", len(first.queued), len(first.seen), len(second.queued), len(second.seen))
	}
}
