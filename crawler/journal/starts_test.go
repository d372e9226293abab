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

// A start deals with the damage it finds: past its X entry, what is done
// counts again. A page done after that start is done at the next one.
func TestAStartDealsWithTheDamageBeforeIt(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir)
	start(t, j, time.Now(), nil)
	damaged := journal.AppendQueued(nil, "http://a.test/2", 1, 10)
	damaged[2] = '7' // the checksum no longer matches
	write(t, j, queued("http://a.test/1"))
	write(t, j, damaged)
	write(t, j, queued("http://a.test/3"))
	j.Close()

	j = open(t, dir)
	if r := start(t, j, time.Now(), nil); !slices.Equal(r.queued, todo("http://a.test/1", "http://a.test/3")) {
		t.Fatalf("to do %v after the damage", r.queued)
	}
	write(t, j, journal.AppendDone(nil, "http://a.test/1")) // done after the start
	j.Close()

	j = open(t, dir)
	defer j.Close()
	r := start(t, j, time.Now(), nil)
	if want := todo("http://a.test/3"); !slices.Equal(r.queued, want) || r.summary.Done != 1 {
		t.Fatalf("to do %v, %d done; want %v, 1 done: the page done after the start counts", r.queued, r.summary.Done, want)
	}
}

// line is a record's line, as page writes it.
func line(url string) []byte { return fmt.Appendf(nil, `{"url":%q,"status":200}`+"\n", url) }

// An O entry for bytes that a start cut from -o is void from that start
// on, even once -o holds other lines there: a fold, which trusts O
// entries without reading -o, must not count its page done. Here the
// entry for page 1's line was lost in a stop, page 2's was written (it
// waits for the gap), the start cut both lines, and page 1 was done again
// with a line as long as before, in a journal that was then folded.
func TestAnEntryForBytesAStartCutIsVoid(t *testing.T) {
	dir := t.TempDir()
	state, path := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	u1, u2 := "http://a.test/1", "http://a.test/2"
	j := open(t, state)
	out, _ := journal.Append(path)
	start(t, j, time.Now(), out)
	write(t, j, queued(u1, u2))
	out.Write(line(u1)) // its entry never written
	from2, _ := out.Write(line(u2))
	write(t, j, journal.AppendOutput(nil, from2, line(u2), []journal.Line{{URL: u2, Depth: 1, Len: len(line(u2))}}))
	j.Close()
	out.Close()

	// The next run folds its journal at the first write after its start.
	st, err := os.Stat(filepath.Join(state, "journal.1"))
	if err != nil {
		t.Fatal(err)
	}
	foldMin := st.Size() + int64(len(journal.StartEntry(0, false))) + 1
	j = openWith(t, state, settings, journal.Options{FoldMin: foldMin})
	out, _ = journal.Append(path)
	if r := start(t, j, time.Now(), out); !slices.Equal(r.queued, todo(u1, u2)) || out.Size() != 0 {
		t.Fatalf("to do %v, -o %d bytes; want both pages, -o cut to 0", r.queued, out.Size())
	}
	page(t, j, out, nil, u1)
	if err := j.WaitFold(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(state, "snapshot.1")); err != nil {
		t.Fatalf("the journal was not folded: %v", err)
	}
	j.Close()
	out.Close()

	j = open(t, state)
	defer j.Close()
	out, _ = journal.Append(path)
	defer out.Close()
	r := start(t, j, time.Now(), out)
	if !slices.Equal(r.queued, todo(u2)) || r.summary.Done != 1 || len(j.Notices()) != 0 {
		t.Fatalf("to do %v, %d done, notices %q; want %v, 1 done, no notice", r.queued, r.summary.Done, j.Notices(), todo(u2))
	}
	if out.Size() != int64(len(line(u1))) {
		t.Fatalf("-o holds %d bytes, want page 1's line", out.Size())
	}
}

// A page done, then to do again (a U entry: its line was lost below a
// snapshot), then done again counts as done, once: in the URLs done and
// in its host's pages. U entries are folded into a snapshot at once by
// the start that writes them; a stop before that fold ends leaves them
// in the journal, and the crawl does their pages again after them.
func TestAPageDoneAgainAfterItsLineWasLostCountsOnce(t *testing.T) {
	dir := t.TempDir()
	opts := journal.Options{Counts: func(string) (string, string) { return "http://a.test", "" }}
	j := openWith(t, dir, settings, opts)
	start(t, j, time.Now(), nil)
	u := "http://a.test/1"
	b := journal.AppendDone(queued(u), u)
	b = append(b, journal.UndoneEntry(u, 1)...)
	b = journal.AppendDone(b, u)
	write(t, j, b)
	j.Close()

	j = openWith(t, dir, settings, opts)
	defer j.Close()
	r := start(t, j, time.Now(), nil)
	if len(r.queued) != 0 || r.summary.Done != 1 || r.pages["http://a.test"] != 1 {
		t.Fatalf("to do %v, %d done, %d pages on a.test; want nothing to do, 1 done, 1 page", r.queued, r.summary.Done, r.pages["http://a.test"])
	}
}

// A snapshot missing a whole entry of its queue (an edit: each entry is
// whole, but its trailer counts them) is damage, and the start refuses
// it rather than lose the URL.
func TestASnapshotMissingAnEntryIsRefused(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	foldCrawl(t, state, out, 30)
	snaps, _ := filepath.Glob(filepath.Join(state, "snapshot.*"))
	b, err := os.ReadFile(snaps[0])
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(b), "\nQ\t") + 1
	if i == 0 {
		t.Fatal("the snapshot has no queue")
	}
	end := i + strings.IndexByte(string(b[i:]), '\n') + 1
	os.WriteFile(snaps[0], append(b[:i:i], b[end:]...), 0o644)

	if err := replayErr(t, state, out); err == nil || !strings.Contains(err.Error(), "entries are missing") {
		t.Fatalf("replay of a snapshot missing an entry: %v", err)
	}
}

// A damaged tail of a journal that is not the last (a damaged disk: a
// journal is synced before the next one is begun) is damage: no page
// done after it counts as done, at the start that finds it, nor in the
// snapshot a fold writes from the same journals. Page 1's link may have
// been in the damaged bytes.
func TestADamagedTailOfAnEarlierJournalIsDamage(t *testing.T) {
	dir := t.TempDir()
	u1, u2, u3 := "http://a.test/1", "http://a.test/2", "http://a.test/3"
	j := open(t, dir)
	start(t, j, time.Now(), nil)
	write(t, j, queued(u1, u2, u3))
	j.Close()
	f, err := os.OpenFile(filepath.Join(dir, "journal.1"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(journal.AppendQueued(nil, "http://a.test/4", 2, 10)[:20]) // page 1's link, half left
	f.Close()
	os.WriteFile(filepath.Join(dir, "journal.2"), journal.AppendDone(nil, u1), 0o644)

	j, err = journal.Open(dir, settings, journal.Options{FoldMin: 1}) // folds as it begins
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, j, time.Now(), nil)
	if want := todo(u1, u2, u3); !slices.Equal(r.queued, want) || r.summary.Done != 0 {
		t.Fatalf("to do %v, %d done; want %v, none done", r.queued, r.summary.Done, want)
	}
	if n := j.Notices(); len(n) != 1 || !strings.Contains(n[0], "journal.1: a damaged tail") {
		t.Fatalf("notices %q", n)
	}
	if err := j.WaitFold(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "snapshot.2")); err != nil {
		t.Fatalf("the journals were not folded: %v", err)
	}
	j.Close()

	j = open(t, dir)
	defer j.Close()
	if r := start(t, j, time.Now(), nil); !slices.Equal(r.queued, todo(u1, u2, u3)) || r.summary.Done != 0 {
		t.Fatalf("after the fold: to do %v, %d done; want all three, none done", r.queued, r.summary.Done)
	}
}

// Going on with another -o (Reuse): it is new to the crawl, so the lines
// of the first file stay done without being looked for in it, and the
// O entries from then on are for the new file, from where it ends. The
// crawler refuses a new -o that holds bytes; the journal keeps them, as
// lines that are not the crawl's.
func TestGoingOnWithAnotherOutput(t *testing.T) {
	for _, held := range []string{"", `{"url":"http://other.test/","status":200}` + "\n"} {
		t.Run(fmt.Sprintf("holding %d bytes", len(held)), func(t *testing.T) {
			dir := t.TempDir()
			state := filepath.Join(dir, "state")
			first, second := filepath.Join(dir, "first.jsonl"), filepath.Join(dir, "second.jsonl")
			u0, u1, u2 := "http://a.test/", "http://a.test/1", "http://a.test/2"
			s1, s2 := settings, settings
			s1.Output, s2.Output = first, second
			j := openWith(t, state, s1, journal.Options{})
			out, _ := journal.Append(first)
			start(t, j, time.Now(), out)
			page(t, j, out, queued(u0, u1, u2), u0)
			j.Close()
			out.Close()

			os.WriteFile(second, []byte(held), 0o644)
			j = openWith(t, state, s2, journal.Options{Reuse: true})
			if !j.NewOutput() {
				t.Fatal("another -o is not new to the crawl")
			}
			out, _ = journal.Append(second)
			if r := start(t, j, time.Now(), out); !slices.Equal(r.queued, todo(u1, u2)) || r.summary.Done != 1 || out.Size() != int64(len(held)) {
				t.Fatalf("to do %v, %d done, -o %d bytes; want %v, 1 done, its %d bytes kept",
					r.queued, r.summary.Done, out.Size(), todo(u1, u2), len(held))
			}
			if n := j.Notices(); len(n) != 1 || !strings.Contains(n[0], "going on with other settings") {
				t.Fatalf("notices %q; want only the one for the other settings (the first file ends where vouched for)", n)
			}
			page(t, j, out, nil, u1)
			j.Close()
			out.Close()

			j = openWith(t, state, s2, journal.Options{})
			defer j.Close()
			out, _ = journal.Append(second)
			defer out.Close()
			r := start(t, j, time.Now(), out)
			if !slices.Equal(r.queued, todo(u2)) || r.summary.Done != 2 || len(j.Notices()) != 0 {
				t.Fatalf("to do %v, %d done, notices %q; want %v, 2 done, no notice", r.queued, r.summary.Done, j.Notices(), todo(u2))
			}
			if b, _ := os.ReadFile(second); string(b) != held+string(line(u1)) {
				t.Fatalf("the new -o holds %q, want what it held, then page 1's line", b)
			}
		})
	}
}
