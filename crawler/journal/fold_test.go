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

// foldCrawl writes a crawl of n pages (n > 50) to a state directory
// whose journal folds every few hundred bytes: page i queues pages 2i+1
// and 2i+2, and its parent again (found again on another loop), is sent,
// and is done (its line in -o, vouched for); pages sent and not done,
// robots.txt and a hold are mixed in. It returns what a start must find
// to do, in order.
func foldCrawl(t *testing.T, state, out string, n int) (want []string) {
	t.Helper()
	j := openWith(t, state, settings, journal.Options{FoldMin: 600})
	o, err := journal.Append(out)
	if err != nil {
		t.Fatal(err)
	}
	start(t, j, time.Now(), o)
	u := func(i int) string { return fmt.Sprintf("http://a.test/%d", i) }
	page(t, j, o, queued(u(0)))
	for i := range n {
		b := journal.AppendSent(queued(u(2*i+1), u(2*i+2), u(i/2)), u(i))
		if i == 5 {
			b = journal.AppendSent(b, u(100)) // sent before it is queued, as nothing is: it is what is read
		}
		if i == 3 {
			b = journal.AppendRobots(b, "http://a.test", time.Now().Add(time.Hour), []byte("User-agent: *\n"))
			b = journal.AppendHold(b, "a.test", time.Now().Add(time.Hour))
		}
		page(t, j, o, b, u(i))
		if i%7 == 0 {
			if err := j.WaitFold(); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(t, j, journal.AppendSent(nil, u(n+1)))
	if err := j.WaitFold(); err != nil {
		t.Fatal(err)
	}
	j.Close()
	o.Close()
	for i := n; i <= 2*n; i++ {
		if i != n+1 && i != 100 {
			want = append(want, u(i)+" 1 10")
		}
	}
	return append(want, u(n+1)+" 1 10", u(100)+" 1 10") // sent before the stop: last
}

// replayErr replays the crawl in state with out as -o, and returns the
// error of a replay that is to refuse it.
func replayErr(t *testing.T, state, out string) error {
	t.Helper()
	j := open(t, state)
	defer j.Close()
	o, _ := journal.Append(out)
	defer o.Close()
	_, err := j.Replay(time.Now(), journal.Visitor{}, o)
	return err
}

// A crawl whose journal was folded into snapshots, again and again while
// it ran, starts again with exactly what is left — the same as without a
// snapshot: the URLs to do in order, those sent before the stop last,
// robots.txt, holds, what is known — from the last snapshot and the
// journal after it; the journals it replaced are gone.
func TestFoldKeepsWhatIsLeft(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	want := foldCrawl(t, state, out, 60)
	snaps, _ := filepath.Glob(filepath.Join(state, "snapshot.*"))
	journals, _ := filepath.Glob(filepath.Join(state, "journal.*"))
	seens, _ := filepath.Glob(filepath.Join(state, "seen.*"))
	if len(snaps) != 1 || len(seens) != 1 || len(journals) != 1 {
		t.Fatalf("%v, %v, %v: want one snapshot, its seen file and the journal after it", snaps, seens, journals)
	}
	for run := 1; run <= 2; run++ {
		j := open(t, state)
		o, _ := journal.Append(out)
		r := start(t, j, time.Now(), o)
		if !slices.Equal(r.queued, want) {
			t.Fatalf("run %d: to do\n%v\nwant\n%v", run, r.queued, want)
		}
		if r.summary.Done != 60 || len(r.robots) != 1 || len(r.holds) != 1 {
			t.Fatalf("run %d: %+v, robots %v, holds %v", run, r.summary, r.robots, r.holds)
		}
		for i := range 121 {
			if !r.known.Has(fmt.Sprintf("http://a.test/%d", i)) {
				t.Fatalf("run %d: page %d is not known", run, i)
			}
		}
		if n := j.Notices(); len(n) != 0 {
			t.Fatalf("run %d: notices %q", run, n)
		}
		j.Close()
		o.Close()
	}
}

// A snapshot is written whole and renamed: one that is not whole, or
// whose seen file was saved with another key, is damage, and the start
// refuses it, saying so, rather than go on with part of the crawl.
func TestDamagedSnapshotIsRefused(t *testing.T) {
	for _, damage := range []string{"snapshot", "seen", "key", "seen removed"} {
		t.Run(damage, func(t *testing.T) {
			dir := t.TempDir()
			state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
			foldCrawl(t, state, out, 30)
			snaps, _ := filepath.Glob(filepath.Join(state, strings.Fields(damage)[0]+".*"))
			switch damage {
			case "seen removed":
				os.Remove(snaps[0])
			case "key":
				b, _ := os.ReadFile(filepath.Join(state, "crawl.json"))
				i := strings.Index(string(b), `"seen_key": "`) + len(`"seen_key": "`)
				b[i] = "10"[min(int(b[i]-'0'), 1)] // another hex digit: another key
				os.WriteFile(filepath.Join(state, "crawl.json"), b, 0o644)
			default:
				b, _ := os.ReadFile(snaps[0])
				os.WriteFile(snaps[0], b[:len(b)-20], 0o644)
			}
			if err := replayErr(t, state, out); err == nil || !strings.Contains(err.Error(), "damaged") {
				t.Fatalf("replay of a damaged %s: %v", damage, err)
			}
		})
	}
}

// -o cut below what the snapshot vouched for (not something a stop does:
// an edit, a tool gone wrong) loses no page: the done log says whose
// lines were past the last whole one, and they are to do again, with a
// notice; the next start finds it as the first left it. Without the done
// log, the start refuses, saying so, rather than lose them. Folds append
// their entries to the done log as they count them, a buffer at a time:
// so again with a buffer of a byte, every entry appended on its own (seen
// failing, the start refusing for want of the done log's entries, with a
// fold dropping what it held when its buffer was full).
func TestOutputCutBelowTheSnapshotIsMadeGood(t *testing.T) {
	t.Run("done log appended at the end", outputCutBelowTheSnapshotIsMadeGood)
	t.Run("done log appended entry by entry", func(t *testing.T) {
		journal.SetDoneLogBuffer(t, 1)
		outputCutBelowTheSnapshotIsMadeGood(t)
	})
}

func outputCutBelowTheSnapshotIsMadeGood(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	want := foldCrawl(t, state, out, 60)
	b, _ := os.ReadFile(out)
	at := len(b) / 3
	lines := strings.Split(string(b[:at]), "\n")
	kept := len(lines) - 1 // whole lines below the cut; the cut one is fetched again
	os.WriteFile(out, b[:at], 0o644)
	var again []string
	for _, l := range strings.Split(string(b), "\n")[kept:] {
		if i := strings.Index(l, `"url":"`); i >= 0 {
			again = append(again, l[i+7:strings.Index(l[i+7:], `"`)+i+7])
		}
	}
	for run := 1; run <= 2; run++ {
		j := open(t, state)
		o, _ := journal.Append(out)
		r := start(t, j, time.Now(), o)
		for _, w := range want {
			if !slices.Contains(r.queued, w) {
				t.Fatalf("run %d: %s, to do before, is not to do now", run, w)
			}
		}
		var gone []string // URLs to do that were not before
		for _, q := range r.queued {
			if !slices.Contains(want, q) {
				gone = append(gone, strings.Fields(q)[0])
			}
		}
		slices.Sort(gone)
		slices.Sort(again)
		if !slices.Equal(gone, again) || r.summary.Done != kept {
			t.Fatalf("run %d: to do again %v, %d done;\nwant %v, %d done", run, gone, r.summary.Done, again, kept)
		}
		if n := j.Notices(); run == 1 && (len(n) != 1 || !strings.Contains(n[0], fmt.Sprintf("the %d pages whose lines were past the cut are fetched again", len(again)))) {
			t.Fatalf("notices %q", n)
		}
		j.Close()
		o.Close()
	}

	os.Remove(filepath.Join(state, "done"))
	os.WriteFile(out, b[:at/2], 0o644)
	if err := replayErr(t, state, out); err == nil || !strings.Contains(err.Error(), "the done log") {
		t.Fatalf("without the done log: %v", err)
	}
}

// A fold cut short by a stop leaves a snapshot half written, and perhaps
// a seen file whose snapshot never came: the next start removes them,
// and keeps the last snapshot and its seen file.
func TestAStartTidiesWhatAFoldLeft(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	want := foldCrawl(t, state, out, 60)
	snaps, _ := filepath.Glob(filepath.Join(state, "snapshot.*"))
	left := []string{snaps[0] + "0.tmp", filepath.Join(state, "seen.1000"), filepath.Join(state, "seen.1000.tmp")}
	for _, name := range left {
		os.WriteFile(name, []byte("half"), 0o644)
	}
	j := open(t, state)
	defer j.Close()
	o, _ := journal.Append(out)
	defer o.Close()
	if r := start(t, j, time.Now(), o); !slices.Equal(r.queued, want) {
		t.Fatalf("to do %v, want %v", r.queued, want)
	}
	for _, name := range left {
		if _, err := os.Stat(name); err == nil {
			t.Errorf("%s is still there", name)
		}
	}
	if kept, _ := filepath.Glob(filepath.Join(state, "s*.*")); len(kept) != 2 {
		t.Errorf("%v: want the snapshot and its seen file", kept)
	}
}

// A journal removed from between a snapshot and the journals after it is
// read as damage: the start says it is not there, no page done after it
// counts as done, and -o is cut back to what the snapshot vouched for —
// the pages done since are to do again, and nothing queued is lost.
func TestAJournalRemovedIsReadAsDamage(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	want := foldCrawl(t, state, out, 60)
	journals, _ := filepath.Glob(filepath.Join(state, "journal.*"))
	snaps, _ := filepath.Glob(filepath.Join(state, "snapshot.*"))
	var number, vouched, version int
	head, _ := os.ReadFile(snaps[0])
	fmt.Sscanf(string(head), "I\t%d\t%d\t%d", &version, &number, &vouched)
	last := journals[0]
	os.Rename(last, filepath.Join(state, fmt.Sprintf("journal.%d", number+2))) // journal.number+1 is gone
	j := open(t, state)
	defer j.Close()
	o, _ := journal.Append(out)
	defer o.Close()
	r := start(t, j, time.Now(), o)
	if n := j.Notices(); len(n) < 1 || !strings.Contains(n[0], fmt.Sprintf("journal.%d is not there", number+1)) {
		t.Fatalf("notices %q", n)
	}
	if o.Size() != int64(vouched) {
		t.Fatalf("-o holds %d bytes, want the %d the snapshot vouched for", o.Size(), vouched)
	}
	for _, w := range want {
		if !slices.Contains(r.queued, w) {
			t.Fatalf("%s, to do before, is not to do now", w)
		}
	}
	if len(r.queued) <= len(want) {
		t.Fatalf("%d to do: the pages done in the journal after the gap are not to do again", len(r.queued))
	}
}

// -o cut below what the snapshot vouched for, exactly after a whole
// line, has nothing to cut: the pages whose lines were past its end are
// to do again all the same, and the start says so.
func TestOutputCutAtALineBelowTheSnapshotIsSaid(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	foldCrawl(t, state, out, 60)
	b, _ := os.ReadFile(out)
	at := len(b)/3 + strings.IndexByte(string(b[len(b)/3:]), '\n') + 1
	os.WriteFile(out, b[:at], 0o644)
	kept := strings.Count(string(b[:at]), "\n")
	j := open(t, state)
	defer j.Close()
	o, _ := journal.Append(out)
	defer o.Close()
	r := start(t, j, time.Now(), o)
	if r.summary.Done != kept || o.Size() != int64(at) {
		t.Fatalf("%d done, -o %d bytes; want the %d lines kept, %d bytes", r.summary.Done, o.Size(), kept, at)
	}
	again := fmt.Sprintf("the %d pages whose lines were past the cut are fetched again", 60-kept)
	if n := j.Notices(); len(n) != 1 || !strings.Contains(n[0], again) {
		t.Fatalf("notices %q, want one saying %q", n, again)
	}
}

// fileSize is the size of the file at path, failing the test if it is
// not there.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// A start counts every journal since the snapshot towards FoldMin, not
// only the last one: journals left by earlier runs (a fold that was
// stopped leaves two) are replayed by every start until they are folded,
// so together they are what makes a fold worth it. Here each journal
// alone is shorter than FoldMin and both together are longer: the start
// folds them.
func TestAStartFoldsEveryJournalSinceTheSnapshot(t *testing.T) {
	state := t.TempDir()
	j := open(t, state)
	start(t, j, time.Now(), nil)
	for i := range 40 {
		write(t, j, queued(fmt.Sprintf("http://a.test/first/%d", i)))
	}
	j.Close()
	first := fileSize(t, filepath.Join(state, "journal.1"))
	// The journal a stopped fold went on in, with a few entries.
	var b []byte
	for i := range 5 {
		b = journal.AppendQueued(b, fmt.Sprintf("http://a.test/second/%d", i), 1, 10)
	}
	if err := os.WriteFile(filepath.Join(state, "journal.2"), b, 0o644); err != nil {
		t.Fatal(err)
	}

	foldMin := first + int64(len(b))/2 // more than either journal, less than both
	j = openWith(t, state, settings, journal.Options{FoldMin: foldMin})
	defer j.Close()
	r := start(t, j, time.Now(), nil)
	if len(r.queued) != 45 {
		t.Fatalf("%d URLs to do; want the 45 both journals queued", len(r.queued))
	}
	if err := j.WaitFold(); err != nil {
		t.Fatal(err)
	}
	if snaps, _ := filepath.Glob(filepath.Join(state, "snapshot.*")); len(snaps) != 1 {
		t.Fatalf("snapshots %v after a start with %d bytes of journals (FoldMin %d); want them folded into one",
			snaps, first+int64(len(b)), foldMin)
	}
}

// Once there is a snapshot, the journals after it are folded when they
// reach half its size (with its seen file): a fold writes the snapshot
// again for every half of it the journals wrote, and a start reads at
// most one and a half snapshots' worth. Here the journals grow a little
// past half the snapshot, well short of all of it, and a fold comes.
func TestJournalsFoldAtHalfTheSnapshotsSize(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	foldCrawl(t, state, out, 60)
	j := openWith(t, state, settings, journal.Options{FoldMin: 1})
	defer j.Close()
	o, _ := journal.Append(out)
	defer o.Close()
	start(t, j, time.Now(), o)
	if err := j.WaitFold(); err != nil { // in case the start folded
		t.Fatal(err)
	}
	gen := func() (snap int, snapBytes, journalBytes int64) {
		snaps, _ := filepath.Glob(filepath.Join(state, "snapshot.*"))
		for _, s := range snaps {
			var n int
			fmt.Sscanf(filepath.Ext(s), ".%d", &n)
			snap = max(snap, n)
		}
		snapBytes = fileSize(t, filepath.Join(state, fmt.Sprint("snapshot.", snap))) +
			fileSize(t, filepath.Join(state, fmt.Sprint("seen.", snap)))
		journals, _ := filepath.Glob(filepath.Join(state, "journal.*"))
		for _, f := range journals {
			var n int
			fmt.Sscanf(filepath.Ext(f), ".%d", &n)
			if n > snap {
				journalBytes += fileSize(t, f)
			}
		}
		return snap, snapBytes, journalBytes
	}
	snap, size, journals := gen()
	if journals >= size/2 {
		t.Fatalf("the journals hold %d bytes after the start, the snapshot %d: want less than half of it to begin with", journals, size)
	}
	entry := queued("http://a.test/new/0000")
	if int64(len(entry)) > size/8 {
		t.Fatalf("the snapshot is %d bytes, an entry %d: too small for this test", size, len(entry))
	}
	for i := 0; journals+int64(len(entry)) < size/2+size/8; i++ {
		write(t, j, queued(fmt.Sprintf("http://a.test/new/%04d", i)))
		journals += int64(len(entry))
	}
	if err := j.WaitFold(); err != nil {
		t.Fatal(err)
	}
	if after, _, _ := gen(); after == snap {
		t.Fatalf("no fold after the journals grew to about %d bytes, past half the snapshot's %d", journals, size)
	}
}

// A snapshot written before snapshots named their -o file (version 1, no
// F entry) is still read: a start from one finds the same work left as
// from the version 2 snapshot it is made of, with no notice.
func TestAVersion1SnapshotIsStillRead(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	want := foldCrawl(t, state, out, 60)
	snaps, _ := filepath.Glob(filepath.Join(state, "snapshot.*"))
	if len(snaps) != 1 {
		t.Fatalf("snapshots %v: want one", snaps)
	}
	b, err := os.ReadFile(snaps[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "\nF\t") {
		t.Fatal("the snapshot names an -o file: not what version 1 could hold")
	}
	// Its header, as version 1 wrote it: the same numbers, version 1,
	// sealed with its checksum.
	header, rest, _ := strings.Cut(string(b), "\n")
	fields := strings.Split(header, "\t")
	if len(fields) != 8 || fields[0] != "I" || fields[1] != "2" {
		t.Fatalf("header %q: want I, version 2, five numbers and a checksum", header)
	}
	fields[1] = "1"
	line := strings.Join(fields[:7], "\t")
	line += fmt.Sprintf("\t%08x\n", crc32.ChecksumIEEE([]byte(line)))
	if err := os.WriteFile(snaps[0], []byte(line+rest), 0o644); err != nil {
		t.Fatal(err)
	}

	j := open(t, state)
	defer j.Close()
	o, err := journal.Append(out)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	r := start(t, j, time.Now(), o)
	if !slices.Equal(r.queued, want) {
		t.Fatalf("to do\n%v\nwant\n%v", r.queued, want)
	}
	if r.summary.Done != 60 || len(r.robots) != 1 || len(r.holds) != 1 {
		t.Fatalf("%+v, robots %v, holds %v", r.summary, r.robots, r.holds)
	}
	for i := range 121 {
		if !r.known.Has(fmt.Sprintf("http://a.test/%d", i)) {
			t.Fatalf("page %d is not known", i)
		}
	}
	if n := j.Notices(); len(n) != 0 {
		t.Fatalf("notices %q", n)
	}
}

// The seen set a start hands over counts both halves: the URLs in the
// snapshot's seen file and those the journals after it added, once each.
// A caller sizes its seen set (in memory or on disk) by Len, so Len is
// exactly how many hashes Each gives.
func TestTheSeenBaseCountsTheSnapshotAndTheJournalsAfterIt(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	foldCrawl(t, state, out, 60) // pages 0 to 120 seen
	j := open(t, state)
	o, err := journal.Append(out)
	if err != nil {
		t.Fatal(err)
	}
	start(t, j, time.Now(), o)
	// Three new URLs, and one the snapshot already holds.
	write(t, j, queued("http://a.test/500", "http://a.test/501", "http://a.test/502", "http://a.test/3"))
	j.Close()
	o.Close()

	j = open(t, state)
	defer j.Close()
	o, err = journal.Append(out)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	var length, each, inFile, added int
	called := false
	_, err = j.Replay(time.Now(), journal.Visitor{
		Known: func(base *journal.SeenBase) {
			called = true
			length, inFile, added = base.Len(), base.InFile, len(base.Added)
			if err := base.Each(func(uint64) { each++ }); err != nil {
				t.Fatal(err)
			}
		},
	}, o)
	if err != nil {
		t.Fatal(err)
	}
	if !called {
		t.Fatal("the replay handed over no seen set")
	}
	if added == 0 || inFile == 0 {
		t.Fatalf("%d in the seen file, %d added: want both halves", inFile, added)
	}
	if length != 124 || each != 124 {
		t.Fatalf("Len %d, Each gave %d (%d in the file, %d added); want 124: pages 0 to 120 and 3 new", length, each, inFile, added)
	}
}
