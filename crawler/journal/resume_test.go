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

// A batch of more than one entry's worth of lines (256) is vouched for
// entry by entry, each from where the one before ended: at the next
// start every page of the batch is done and -o is kept whole.
func TestALongBatchIsVouchedForWhole(t *testing.T) {
	dir := t.TempDir()
	state, path := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	j := open(t, state)
	out, _ := journal.Append(path)
	start(t, j, time.Now(), out)
	var urls []string
	for i := range 600 {
		urls = append(urls, fmt.Sprintf("http://a.test/%d", i))
	}
	page(t, j, out, queued(urls...), urls...)
	size := out.Size()
	j.Close()
	out.Close()

	j = open(t, state)
	defer j.Close()
	out, _ = journal.Append(path)
	defer out.Close()
	r := start(t, j, time.Now(), out)
	if len(r.queued) != 0 || r.summary.Done != len(urls) || out.Size() != size || len(j.Notices()) != 0 {
		t.Fatalf("%d to do, %d done, -o %d bytes, notices %q; want none to do, %d done, %d bytes, no notice",
			len(r.queued), r.summary.Done, out.Size(), j.Notices(), len(urls), size)
	}
}

// Each line of a resumed -o is judged on its own: a line without a url
// after a record is not a record, and the file is refused unchanged.
func TestResumeRefusesALineWithoutURLAfterARecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.jsonl")
	text := `{"url":"http://a.test/","status":200}` + "\n" + `{"status":200}` + "\n"
	os.WriteFile(path, []byte(text), 0o644)
	var done []string
	_, err := journal.Resume(path, func(u string) { done = append(done, u) })
	if err == nil || !strings.Contains(err.Error(), "line 2: not a crawl record") {
		t.Fatalf("resume: %v, want line 2 refused", err)
	}
	if b, _ := os.ReadFile(path); string(b) != text {
		t.Fatalf("the file was changed: %q", b)
	}
	if len(done) > 1 {
		t.Fatalf("done %q: the line without a url was taken for a record", done)
	}
}

// Bytes past what the journal vouches for that end in a newline but hold
// zeros (a disk that lost a block) are damage, not lines: the cut copies
// them aside, and the copy holds them.
func TestZerosCutFromOutputAreCopiedAside(t *testing.T) {
	dir := t.TempDir()
	state, path := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	j := open(t, state)
	out, _ := journal.Append(path)
	start(t, j, time.Now(), out)
	page(t, j, out, queued("http://a.test/", "http://a.test/1"), "http://a.test/")
	vouched := out.Size()
	zeros := append(make([]byte, 40), '\n')
	out.Write(zeros) // never vouched for
	j.Close()
	out.Close()

	j = open(t, state)
	defer j.Close()
	out, _ = journal.Append(path)
	defer out.Close()
	r := start(t, j, time.Now(), out)
	if !slices.Equal(r.queued, todo("http://a.test/1")) || out.Size() != vouched {
		t.Fatalf("to do %v, -o %d bytes; want page 1, %d bytes", r.queued, out.Size(), vouched)
	}
	n := j.Notices()
	if len(n) != 1 || !strings.Contains(n[0], "and damage: copied to") {
		t.Fatalf("notices %q, want one saying the zeros were copied aside", n)
	}
	copied, err := os.ReadFile(filepath.Join(state, "damaged", fmt.Sprintf("output.%d", vouched)))
	if err != nil || string(copied) != string(zeros) {
		t.Fatalf("the copy holds %q (%v), want the zeros cut", copied, err)
	}
}

// Filters changed at one start (Reuse) are filtered for at every start
// after it, even one that changes only -o; a change of -o alone never
// asks for it.
func TestRefilterOnceTheFiltersChanged(t *testing.T) {
	dir := t.TempDir()
	reopen := func(s journal.Settings) bool {
		t.Helper()
		j := openWith(t, dir, s, journal.Options{Reuse: true})
		defer j.Close()
		start(t, j, time.Now(), nil)
		return j.Refilter()
	}
	withOut := settings
	withOut.Output = filepath.Join(dir, "a.jsonl")
	if reopen(settings) || reopen(withOut) {
		t.Fatal("refilter asked for with the filters unchanged")
	}
	deeper := withOut
	deeper.MaxDepth = 3
	if !reopen(deeper) {
		t.Fatal("no refilter when the filters changed")
	}
	if !reopen(deeper) {
		t.Fatal("refilter forgotten at the next start with the same settings")
	}
	otherOut := deeper
	otherOut.Output = filepath.Join(dir, "b.jsonl")
	if !reopen(otherOut) {
		t.Fatal("refilter forgotten at a start that changes only -o")
	}
	if !reopen(otherOut) {
		t.Fatal("refilter forgotten after a start that changed only -o")
	}
}

// Of two robots.txt of a host, the later one comes back; one longer than
// the read buffer (256 KiB) comes back whole.
func TestTheLatestRobotsComesBackWhole(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	j := open(t, dir)
	start(t, j, now, nil)
	long := strings.Repeat("Disallow: /x\n", 40000) // 520 KB, 693 KB in base64
	var b []byte
	b = journal.AppendRobots(b, "http://a.test", now.Add(time.Hour), []byte("first"))
	b = journal.AppendRobots(b, "http://a.test", now.Add(time.Hour), []byte("second"))
	b = journal.AppendRobots(b, "http://b.test", now.Add(time.Hour), []byte(long))
	write(t, j, b)
	j.Close()

	j = open(t, dir)
	defer j.Close()
	r := start(t, j, now, nil)
	if r.robots["http://a.test"] != "second" || r.robots["http://b.test"] != long || len(j.Notices()) != 0 {
		t.Fatalf("a.test's robots %q, b.test's %d bytes, notices %q; want the second, %d bytes, no notice",
			r.robots["http://a.test"], len(r.robots["http://b.test"]), j.Notices(), len(long))
	}
}

// A page done, then to do again (a U entry: its line in -o was lost),
// is to do even after an E entry, and no longer counts towards its host
// or its path.
func TestAPageToDoAgainUndoesItsCounts(t *testing.T) {
	dir := t.TempDir()
	opts := journal.Options{Counts: func(u string) (string, string) { return "http://a.test", "http://a.test/s" }}
	j := openWith(t, dir, settings, opts)
	start(t, j, time.Now(), nil)
	u1, u2 := "http://a.test/s?q=1", "http://a.test/s?q=2"
	b := journal.AppendDone(journal.AppendDone(queued(u1, u2), u1), u2)
	write(t, j, b)
	if err := j.End(); err != nil {
		t.Fatal(err)
	}
	write(t, j, journal.UndoneEntry(u1, 1))
	j.Close()

	j = openWith(t, dir, settings, opts)
	defer j.Close()
	variants := map[string]int{}
	pages := map[string]int{}
	var todo []string
	s, err := j.Replay(time.Now(), journal.Visitor{
		Pages:    func(host string, n int) { pages[host] = n },
		Variants: func(path string, n int) { variants[path] = n },
		Queued:   func(u string, _, _ int32) { todo = append(todo, u) },
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Finished || s.Done != 1 || !slices.Equal(todo, []string{u1}) || pages["http://a.test"] != 1 || variants["http://a.test/s"] != 1 {
		t.Fatalf("finished %v, %d done, to do %q, pages %v, variants %v; want not finished, 1 done, %s to do, 1 page and 1 variant",
			s.Finished, s.Done, todo, pages, variants, u1)
	}
}
