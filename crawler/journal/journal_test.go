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
	"loopkit/crawler/urlnorm"
	"loopkit/netpoll"
)

var settings = journal.Settings{Roots: []string{"http://a.test/"}, Scope: "strict", Robots: true, MaxRedirect: 10}

// open opens the crawl in dir with the tests' settings and no options.
func open(t *testing.T, dir string) *journal.Journal {
	t.Helper()
	return openWith(t, dir, settings, journal.Options{})
}

// openWith opens the crawl in dir, and fails the test if it cannot.
func openWith(t *testing.T, dir string, s journal.Settings, opts journal.Options) *journal.Journal {
	t.Helper()
	j, err := journal.Open(dir, s, opts)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// replayed is what a replay told.
type replayed struct {
	queued  []string
	known   *urlnorm.Seen
	robots  map[string]string
	holds   map[string]time.Time
	pages   map[string]int
	summary journal.Summary
}

// start replays j, with out as -o (or nil), and begins it, as a crawl's
// start does.
func start(t *testing.T, j *journal.Journal, now time.Time, out *journal.Output) replayed {
	t.Helper()
	r := replayed{robots: map[string]string{}, holds: map[string]time.Time{}, pages: map[string]int{}}
	s, err := j.Replay(now, journal.Visitor{
		Known: func(base *journal.SeenBase) { // every hash it holds, in memory, for the tests to ask
			known := urlnorm.NewSeen(j.SeenKey(), nil)
			if err := base.Each(func(h uint64) { known.AddHash(h) }); err != nil {
				t.Fatal(err)
			}
			r.known = &known
		},
		Pages: func(host string, n int) { r.pages[host] = n },
		Queued: func(u string, depth, redirects int32) {
			r.queued = append(r.queued, fmt.Sprintf("%s %d %d", u, depth, redirects))
		},
		Robots: func(origin string, _ time.Time, body []byte) { r.robots[origin] = string(body) },
		Hold:   func(authority string, until time.Time) { r.holds[authority] = until },
	}, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Begin(); err != nil {
		t.Fatal(err)
	}
	r.summary = s
	return r
}

func write(t *testing.T, j *journal.Journal, b []byte) {
	t.Helper()
	if err := j.Write(b); err != nil {
		t.Fatal(err)
	}
}

// page writes a batch as the crawler's store does: the entries, then
// the records' lines in -o, then the entries vouching for them.
func page(t *testing.T, j *journal.Journal, out *journal.Output, entries []byte, urls ...string) {
	t.Helper()
	if len(entries) > 0 {
		write(t, j, entries)
	}
	var lines []byte
	var recs []journal.Line
	for _, u := range urls {
		line := fmt.Sprintf(`{"url":%q,"status":200}`+"\n", u)
		lines = append(lines, line...)
		recs = append(recs, journal.Line{URL: u, Depth: 1, Len: len(line)})
	}
	if len(lines) == 0 {
		return
	}
	from, err := out.Write(lines)
	if err != nil {
		t.Fatal(err)
	}
	write(t, j, journal.AppendOutput(nil, from, lines, recs))
}

func queued(urls ...string) []byte {
	var b []byte
	for _, u := range urls {
		b = journal.AppendQueued(b, u, 1, 10)
	}
	return b
}

func todo(urls ...string) []string {
	var out []string
	for _, u := range urls {
		out = append(out, u+" 1 10")
	}
	return out
}

// What was queued and not done comes back in the order it was found,
// each once; everything queued or done is known; the latest robots.txt
// of each host comes back while it lasts.
func TestReplayGivesBackWhatIsLeft(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	j := open(t, dir)
	start(t, j, now, nil)
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
	write(t, j, b)
	j.Close()

	j = open(t, dir)
	defer j.Close()
	if !j.Resumed() || j.Fresh() {
		t.Fatal("a directory with a crawl in it is not a resumed one")
	}
	r := start(t, j, now, nil)
	if want := []string{"http://a.test/1 1 10", "http://a.test/2 1 9"}; !slices.Equal(r.queued, want) {
		t.Fatalf("to do %v, want %v", r.queued, want)
	}
	for _, u := range []string{"http://a.test/", "http://a.test/1", "http://a.test/2"} {
		if !r.known.Has(u) {
			t.Errorf("%s is not known", u)
		}
	}
	if r.known.Has("http://a.test/3") {
		t.Error("a URL never queued is known")
	}
	if len(r.robots) != 1 || !strings.Contains(r.robots["http://a.test"], "Disallow: /old") {
		t.Fatalf("robots %v, want a.test's and not the expired one", r.robots)
	}
	if len(r.holds) != 1 || r.holds["a.test"].IsZero() {
		t.Fatalf("holds %v, want a.test's only", r.holds)
	}
	if r.summary.Done != 1 || r.summary.ToDo != 2 || r.summary.Finished {
		t.Fatalf("summary %+v", r.summary)
	}
}

// A server held for long, then for less (a later Retry-After, shorter),
// is held for the longer: the later, shorter hold does not replace it.
func TestALaterShorterHoldKeepsTheLongerOne(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	j := open(t, dir)
	start(t, j, now, nil)
	long, short := now.Add(time.Hour).Truncate(time.Millisecond), now.Add(time.Minute)
	write(t, j, journal.AppendHold(journal.AppendHold(nil, "a.test", long), "a.test", short))
	j.Close()
	j = open(t, dir)
	defer j.Close()
	if r := start(t, j, now, nil); !r.holds["a.test"].Equal(long) {
		t.Fatalf("held until %v, want the longer hold, %v", r.holds["a.test"], long)
	}
}

// A page whose request went out and whose record was never written (in
// flight at a stop) is handed out after every other URL to do: a page
// that crashed the crawler is not what the next start does first.
func TestPagesSentBeforeAStopComeLast(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	start(t, j, time.Now(), nil)
	b := queued("http://a.test/1", "http://a.test/2", "http://a.test/3", "http://a.test/4")
	b = journal.AppendSent(b, "http://a.test/1")
	b = journal.AppendSent(b, "http://a.test/2")
	b = journal.AppendDone(b, "http://a.test/2")
	write(t, j, b)
	j.Close()
	j = open(t, dir)
	defer j.Close()
	r := start(t, j, time.Now(), nil)
	if want := todo("http://a.test/3", "http://a.test/4", "http://a.test/1"); !slices.Equal(r.queued, want) {
		t.Fatalf("to do %v, want %v", r.queued, want)
	}
}

// With -o, a page is done once the journal vouches for its line: lines
// written and not vouched for (a stop between the two writes) are cut
// from -o, with a notice that counts them, and their pages are to do.
func TestLinesAreDoneOnceVouchedFor(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl")
	j := open(t, filepath.Join(dir, "state"))
	out, err := journal.Append(path)
	if err != nil {
		t.Fatal(err)
	}
	start(t, j, time.Now(), out)
	page(t, j, out, queued("http://a.test/", "http://a.test/1", "http://a.test/2"), "http://a.test/")
	page(t, j, out, nil, "http://a.test/1")
	vouched := out.Size()
	out.Write([]byte(`{"url":"http://a.test/2","status":200}` + "\n")) // its entry never written
	j.Close()
	out.Close()

	j = open(t, filepath.Join(dir, "state"))
	defer j.Close()
	out, _ = journal.Append(path)
	defer out.Close()
	r := start(t, j, time.Now(), out)
	if want := todo("http://a.test/2"); !slices.Equal(r.queued, want) || r.summary.Done != 2 {
		t.Fatalf("to do %v, %d done; want %v, 2 done", r.queued, r.summary.Done, want)
	}
	if st, _ := os.Stat(path); st.Size() != vouched {
		t.Fatalf("-o holds %d bytes, want the %d vouched for", st.Size(), vouched)
	}
	if n := j.Notices(); len(n) != 1 || !strings.Contains(n[0], fmt.Sprintf("cut 39 bytes after the %d the journal vouches for (1 whole line)", vouched)) {
		t.Fatalf("notices %q", n)
	}
}

// Two loops' batches are written at once: an entry may vouch for lines
// after a gap, before the entry for the gap is written. Its lines count
// only once the gap is vouched for too; if it never is, -o is cut at the
// gap, and both batches are done again.
func TestLinesPastAGapWaitForIt(t *testing.T) {
	for _, filled := range []bool{true, false} {
		t.Run(fmt.Sprint("filled=", filled), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.jsonl")
			j := open(t, filepath.Join(dir, "state"))
			out, _ := journal.Append(path)
			start(t, j, time.Now(), out)
			write(t, j, queued("http://a.test/1", "http://a.test/2"))
			line1 := []byte(`{"url":"http://a.test/1"}` + "\n")
			line2 := []byte(`{"url":"http://a.test/2"}` + "\n")
			from1, _ := out.Write(line1)
			from2, _ := out.Write(line2)
			write(t, j, journal.AppendOutput(nil, from2, line2, []journal.Line{{URL: "http://a.test/2", Len: len(line2)}}))
			if filled {
				write(t, j, journal.AppendOutput(nil, from1, line1, []journal.Line{{URL: "http://a.test/1", Len: len(line1)}}))
			}
			j.Close()
			out.Close()

			j = open(t, filepath.Join(dir, "state"))
			defer j.Close()
			out, _ = journal.Append(path)
			defer out.Close()
			r := start(t, j, time.Now(), out)
			want, size := []string(nil), int64(len(line1)+len(line2))
			if !filled {
				want, size = todo("http://a.test/1", "http://a.test/2"), 0
			}
			if !slices.Equal(r.queued, want) || out.Size() != size {
				t.Fatalf("to do %v, -o %d bytes; want %v, %d bytes", r.queued, out.Size(), want, size)
			}
		})
	}
}

// -o damaged where the journal vouched for it (a disk, an edit) is cut
// there, with a notice; its pages from there are to do, and the log is
// rewritten (a snapshot) so that the next start does not count them.
func TestOutputDamagedWhereVouchedIsCut(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl")
	state := filepath.Join(dir, "state")
	j := open(t, state)
	out, _ := journal.Append(path)
	start(t, j, time.Now(), out)
	page(t, j, out, queued("http://a.test/1", "http://a.test/2", "http://a.test/3"), "http://a.test/1")
	at := out.Size()
	page(t, j, out, nil, "http://a.test/2")
	page(t, j, out, nil, "http://a.test/3")
	j.Close()
	out.Close()
	b, _ := os.ReadFile(path)
	b[at+3] = 'X'
	os.WriteFile(path, b, 0o644)

	for run := 1; run <= 2; run++ {
		j = open(t, state)
		out, _ = journal.Append(path)
		r := start(t, j, time.Now(), out)
		if want := todo("http://a.test/2", "http://a.test/3"); !slices.Equal(r.queued, want) || out.Size() != at || r.summary.Done != 1 {
			t.Fatalf("run %d: to do %v, -o %d bytes, %d done; want %v, %d bytes, 1 done", run, r.queued, out.Size(), r.summary.Done, want, at)
		}
		if n := j.Notices(); run == 1 && (len(n) != 1 || !strings.Contains(n[0], "does not hold what the journal vouched for")) {
			t.Fatalf("notices %q", n)
		}
		if _, err := os.Stat(filepath.Join(state, "snapshot.1")); err != nil {
			t.Fatalf("run %d: the log was not rewritten: %v", run, err)
		}
		j.Close()
		out.Close()
	}
}

// A tail torn by a stop in the middle of a write is cut, with a notice;
// a damaged tail (zeros, several lines) is cut and copied aside. What
// follows is appended after the cut.
func TestDamagedTailIsCut(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tail   func([]byte) []byte
		notice string
	}{
		{"torn", func(whole []byte) []byte { return whole[:len(whole)-7] }, "a write cut short"},
		{"bad checksum", func(whole []byte) []byte { return append(whole[:len(whole)-3], 'x', 'x', '\n') }, "copied to"},
		{"zeros", func([]byte) []byte { return make([]byte, 64) }, "copied to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			j := open(t, dir)
			start(t, j, time.Now(), nil)
			write(t, j, queued("http://a.test/1"))
			write(t, j, tc.tail(journal.AppendQueued(nil, "http://a.test/2", 1, 10)))
			j.Close()

			j = open(t, dir)
			r := start(t, j, time.Now(), nil)
			if want := todo("http://a.test/1"); !slices.Equal(r.queued, want) {
				t.Fatalf("to do %v, want %v", r.queued, want)
			}
			if n := j.Notices(); len(n) != 1 || !strings.Contains(n[0], tc.notice) {
				t.Fatalf("notices %q, want one saying %q", n, tc.notice)
			}
			write(t, j, queued("http://a.test/3"))
			j.Close()
			j = open(t, dir)
			defer j.Close()
			if r := start(t, j, time.Now(), nil); !slices.Equal(r.queued, todo("http://a.test/1", "http://a.test/3")) || len(j.Notices()) != 0 {
				t.Fatalf("after the cut and a write: to do %v, notices %q", r.queued, j.Notices())
			}
		})
	}
}

// A damaged stretch with whole entries after it (a hole a power cut
// left, or a damaged disk) is copied aside, to damaged/, and the notice
// names the copy and the URLs that can still be read in it. No page done
// after it counts as done, since the links it queued may be in the
// stretch; the URLs queued after it are kept.
func TestDamageInTheMiddleIsCopiedAside(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	start(t, j, time.Now(), nil)
	damaged := journal.AppendQueued(nil, "http://a.test/2", 1, 10)
	damaged[2] = '7' // its depth, 1, read as 7: the checksum no longer matches
	write(t, j, queued("http://a.test/1"))
	write(t, j, damaged)
	write(t, j, queued("http://a.test/3"))
	write(t, j, journal.AppendDone(nil, "http://a.test/1"))
	j.Close()

	j = open(t, dir)
	r := start(t, j, time.Now(), nil)
	if want := todo("http://a.test/1", "http://a.test/3"); !slices.Equal(r.queued, want) {
		t.Fatalf("to do %v, want %v (the page done after the damage is done again)", r.queued, want)
	}
	n := j.Notices()
	at := len(journal.StartEntry(0, true)) + len(queued("http://a.test/1"))
	copied := filepath.Join(dir, "damaged", "journal.1."+fmt.Sprint(at))
	if len(n) != 1 || !strings.Contains(n[0], "1 damaged line") || !strings.Contains(n[0], fmt.Sprintf("(%d bytes at byte %d, in which 1 URLs can be read)", len(damaged), at)) ||
		!strings.Contains(n[0], "copied to "+copied) {
		t.Fatalf("notices %q, want one naming %s", n, copied)
	}
	if b, err := os.ReadFile(copied); err != nil || string(b) != string(damaged) {
		t.Fatalf("the copy holds %q (%v), want the damaged entry %q", b, err, damaged)
	}
	j.Close()
	j = open(t, dir) // the start dealt with it: the next one does not count it again, nor say it again
	defer j.Close()
	r = start(t, j, time.Now(), nil)
	if !slices.Equal(r.queued, todo("http://a.test/1", "http://a.test/3")) {
		t.Fatalf("the next start: to do %v", r.queued)
	}
}

// "Finished" comes from an end entry only, never from an empty queue; a
// URL queued after it (a run with new roots) makes the crawl unfinished.
func TestFinishedOnlyFromAnEndEntry(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	start(t, j, time.Now(), nil)
	write(t, j, journal.AppendDone(queued("http://a.test/"), "http://a.test/"))
	j.Close()
	for i, step := range []struct {
		write    func(j *journal.Journal)
		finished bool // at the start after it
	}{
		{func(*journal.Journal) {}, false},                                           // an empty queue is not the end
		{func(j *journal.Journal) { j.End() }, true},                                 // the end entry is
		{func(*journal.Journal) {}, true},                                            // and stays
		{func(j *journal.Journal) { write(t, j, queued("http://a.test/x")) }, false}, // until a URL is queued after it
	} {
		j = open(t, dir)
		start(t, j, time.Now(), nil)
		step.write(j)
		j.Close()
		j = open(t, dir)
		r := start(t, j, time.Now(), nil)
		j.Close()
		if r.summary.Finished != step.finished {
			t.Fatalf("step %d: finished %v, want %v", i, r.summary.Finished, step.finished)
		}
	}
}

// A directory holding another crawl is refused, saying how it differs,
// each setting that does, unless Reuse says to go on; then the new
// settings are kept.
func TestOtherCrawlIsRefused(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	start(t, j, time.Now(), nil)
	j.Close()
	for _, tc := range []struct {
		change func(*journal.Settings)
		says   string
	}{
		{func(s *journal.Settings) { s.Roots = []string{"http://b.test/"} }, "roots was [http://a.test/], now [http://b.test/]"},
		{func(s *journal.Settings) { s.Scope = "lenient" }, "scope was strict, now lenient"},
		{func(s *journal.Settings) { s.Exclude = "x" }, `Config.Exclude was "", now "x"`},
		{func(s *journal.Settings) { s.MaxDepth = 3 }, "Config.MaxDepth was 0, now 3"},
		{func(s *journal.Settings) { s.MaxRedirect = 2 }, "Config.MaxRedirect was 10, now 2"},
		{func(s *journal.Settings) { s.Robots = false }, "robots.txt was obeyed, now ignored"},
		{func(s *journal.Settings) { s.Output = "/x.jsonl" }, `Config.Output was "", now "/x.jsonl"`},
	} {
		other := settings
		tc.change(&other)
		_, err := journal.Open(dir, other, journal.Options{})
		if !errors.Is(err, journal.ErrOtherCrawl) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("refused with %v, want it to say %q", err, tc.says)
		}
	}
	other := settings
	other.Robots = false
	j, err := journal.Open(dir, other, journal.Options{Reuse: true})
	if err != nil {
		t.Fatalf("with reuse: %v", err)
	}
	if n := j.Notices(); len(n) != 1 || !strings.Contains(n[0], "going on with other settings (robots.txt was obeyed, now ignored)") {
		t.Fatalf("notices %q", n)
	}
	start(t, j, time.Now(), nil)
	j.Close()
	if j, err := journal.Open(dir, other, journal.Options{}); err != nil {
		t.Fatalf("the reused settings were not kept: %v", err)
	} else {
		j.Close()
	}
}

// The other way round, too: a run that obeys robots.txt where the crawl
// ignored it is another crawl, refused saying so, and Differences says it.
func TestRobotsTurnedOnIsAnotherCrawl(t *testing.T) {
	ignored := settings
	ignored.Robots = false
	dir := t.TempDir()
	j := openWith(t, dir, ignored, journal.Options{})
	start(t, j, time.Now(), nil)
	j.Close()
	const says = "robots.txt was ignored, now obeyed"
	if d := journal.Differences(ignored, settings); len(d) != 1 || d[0] != says {
		t.Errorf("Differences %q, want [%q]", d, says)
	}
	_, err := journal.Open(dir, settings, journal.Options{})
	if !errors.Is(err, journal.ErrOtherCrawl) || !strings.Contains(err.Error(), says) {
		t.Fatalf("opened with %v, want it refused saying %q", err, says)
	}
}

// Settings are written by Begin, once the crawl could start: a crawl
// that fails before (its -o cannot be opened, say) leaves a directory
// that the corrected command takes as new.
func TestSettingsAreWrittenOnlyOnceTheCrawlStarts(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	if _, err := j.Replay(time.Now(), journal.Visitor{}, nil); err != nil {
		t.Fatal(err)
	}
	j.Close() // never begun
	other := settings
	other.Exclude = "corrected"
	j, err := journal.Open(dir, other, journal.Options{})
	if err != nil {
		t.Fatalf("a directory whose crawl never started: %v", err)
	}
	if !j.Fresh() {
		t.Fatal("it is not taken as new")
	}
	j.Close()
}

// The settings without a journal, or a journal without the settings,
// are refused, saying what is missing; Reuse starts the crawl again from
// its roots when only the journal is gone.
func TestMissingFilesAreRefused(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	start(t, j, time.Now(), nil)
	write(t, j, queued("http://a.test/"))
	j.Close()
	os.Rename(filepath.Join(dir, "journal.1"), filepath.Join(dir, "journal.away"))
	_, err := journal.Open(dir, settings, journal.Options{})
	if !errors.Is(err, journal.ErrMissing) || !strings.Contains(err.Error(), "crawl.json but no journal") {
		t.Fatalf("settings without a journal: %v", err)
	}
	j, err = journal.Open(dir, settings, journal.Options{Reuse: true})
	if err != nil {
		t.Fatalf("with reuse: %v", err)
	}
	if r := start(t, j, time.Now(), nil); len(r.queued) != 0 || j.Resumed() {
		t.Fatalf("with reuse: to do %v, resumed %v; want a crawl from its roots", r.queued, j.Resumed())
	}
	j.Close()

	os.Remove(filepath.Join(dir, "crawl.json"))
	if _, err := journal.Open(dir, settings, journal.Options{Reuse: true}); !errors.Is(err, journal.ErrMissing) || !strings.Contains(err.Error(), "not crawl.json") {
		t.Fatalf("a journal without settings: %v", err)
	}
}

// Two processes cannot work on one directory: the second is refused while
// the first holds it, and may go once it has let go.
func TestOneProcessPerDirectory(t *testing.T) {
	dir := t.TempDir()
	first := open(t, dir)
	if _, err := journal.Open(dir, settings, journal.Options{}); !errors.Is(err, journal.ErrInUse) {
		t.Fatalf("second open: %v, want ErrInUse", err)
	}
	first.Close()
	open(t, dir).Close()
}

// A full disk fails the write with an error that says so.
func TestFullDiskIsAnError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	dir := t.TempDir()
	j := open(t, dir)
	start(t, j, time.Now(), nil)
	j.Close()
	if err := os.Remove(filepath.Join(dir, "journal.1")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/full", filepath.Join(dir, "journal.1")); err != nil {
		t.Fatal(err)
	}
	j = open(t, dir)
	defer j.Close()
	if _, err := j.Replay(time.Now(), journal.Visitor{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := j.Begin(); !netpoll.IsNoSpace(err) {
		t.Fatalf("a start on a full disk: %v, want no space", err)
	}
}

// The pages done count again towards their hosts' caps (Options.Counts),
// over every start.
func TestDonePagesCountAgain(t *testing.T) {
	dir := t.TempDir()
	opts := journal.Options{Counts: func(u string) (string, string) { return u[:len("http://a.test")], "" }}
	for run, urls := range [][]string{{"http://a.test/1", "http://a.test/2"}, {"http://a.test/3"}} {
		j := openWith(t, dir, settings, opts)
		r := start(t, j, time.Now(), nil)
		if want := 2 * run; r.pages["http://a.test"] != want {
			t.Fatalf("run %d: %d pages done on a.test, want %d", run, r.pages["http://a.test"], want)
		}
		var b []byte
		for _, u := range urls {
			b = journal.AppendDone(journal.AppendQueued(b, u, 1, 10), u)
		}
		write(t, j, b)
		j.Close()
	}
}
