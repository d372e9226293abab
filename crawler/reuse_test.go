package crawler_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"loopkit/internal/wirelog"
)

// A crawl goes on with another -o (StateReuse): the start folds the
// journal into a snapshot, whose size of -o is the file before's, and
// says in a new journal, with its first entry, that the crawl goes on in
// the new file from byte 0. A power cut in that journal's first second
// may lose the entry: the file empty, cut inside it, or gone. The next
// start must not apply the snapshot's size, the old file's, to the new
// one. It cuts the new file to what the journal vouches for in it —
// nothing — and says so. Over the two files, each of the site's URLs is
// once, every line is a record, and the server sees again exactly the
// pages whose lines were cut, once each; the notices' numbers are true.
// Twice: the new file shorter than the old one's size, and longer (the
// old size then falls inside the new file's lines).
func TestPowerCutAfterReuseWithAnotherOutput(t *testing.T) {
	t.Parallel()
	srv := wirelog.New(t)
	roots, want := powerCutSite(t, srv)
	for _, records := range [][2]int{{16, 4}, {4, 16}} {
		t.Run(fmt.Sprintf("%d records then %d", records[0], records[1]), func(t *testing.T) {
			powerCutAfterReuse(t, srv, roots, want, records)
		})
	}
}

// powerCutAfterReuse crawls records[0] records into one file, then
// records[1] into another, and plays the power cuts.
func powerCutAfterReuse(t *testing.T, srv *wirelog.Server, roots, want []string, records [2]int) {
	cfg := stateConfig(t, roots...)
	first := cfg.Output
	runUntil(t, cfg, records[0])
	cfg.Output, cfg.StateReuse = filepath.Join(filepath.Dir(first), "second.jsonl"), true
	runUntil(t, cfg, records[1])
	second := cfg.Output
	cfg.StateReuse = false // crawl.json names the second file now: the same crawl

	journal := filepath.Join(cfg.State, "journal.2")
	wholeJournal, err := os.ReadFile(journal)
	if err != nil {
		t.Fatalf("the start with another -o began no journal after its snapshot: %v", err)
	}
	if bytes.IndexByte(wholeJournal, '\n') < 14 {
		t.Fatalf("journal.2's first entry is %d bytes: a cut at 14 is not inside it", bytes.IndexByte(wholeJournal, '\n')+1)
	}
	wholeSecond, _ := os.ReadFile(second)
	linesSecond := bytes.Count(wholeSecond, []byte("\n"))
	if linesSecond == 0 {
		t.Fatal("the run with the second -o wrote no line: nothing to test")
	}
	kept := jsonlOf(t, first)
	saved := t.TempDir()
	copyDir(t, cfg.State, saved)
	base := map[string]string{"a": strings.TrimSuffix(roots[0], "/"), "b": strings.TrimSuffix(roots[1], "/")}

	for _, c := range []struct {
		name string
		at   int // journal.2 cut there; -1: removed
	}{{"empty", 0}, {"cut inside its first entry", 14}, {"removed", -1}} {
		t.Run(c.name, func(t *testing.T) {
			os.RemoveAll(cfg.State)
			copyDir(t, saved, cfg.State)
			if c.at < 0 {
				os.Remove(journal)
			} else {
				applyCut(t, journal, wholeJournal, c.at, false, [2]int{})
			}
			applyCut(t, second, wholeSecond, -1, false, [2]int{})
			arrived := len(srv.Arrivals())
			_, notices := runUntil(t, cfg, 0)

			// The set: each URL once over both files, every line a
			// record (jsonlOf fails on one that is not).
			if got := jsonlOf(t, first); !slices.Equal(got, kept) {
				t.Fatalf("the first file changed: %d lines, was %d", len(got), len(kept))
			}
			inSecond := jsonlOf(t, second)
			all := slices.Sorted(slices.Values(append(slices.Clone(kept), inSecond...)))
			if !slices.Equal(all, want) {
				t.Fatalf("%d lines in the first file and %d in the second, %d distinct, for the site's %d URLs; notices %q",
					len(kept), len(inSecond), len(slices.Compact(slices.Clone(all))), len(want), notices)
			}
			// The server's side: the pages fetched again are the second
			// file's, each once; none of the first file's.
			again := map[string]int{}
			for _, a := range srv.Arrivals()[arrived:] {
				if a.Path != "/robots.txt" {
					again[base[a.Host]+a.Path]++
				}
			}
			for _, u := range kept {
				if again[u] > 0 {
					t.Errorf("%s, in the first file, fetched again", u)
				}
			}
			for u, n := range again {
				if n > 1 {
					t.Errorf("%s fetched %d times", u, n)
				}
			}
			if len(again) != len(inSecond) {
				t.Errorf("%d pages fetched for the %d lines the second file ends with", len(again), len(inSecond))
			}
			// The notices: the second file cut whole, from byte 0, and
			// the first file's pages done.
			var cut, resumed []string
			for _, n := range notices {
				if m := cutNotice.FindStringSubmatch(n); m != nil && strings.HasPrefix(n, second) {
					cut = m
				}
				if m := resumedNotice.FindStringSubmatch(n); m != nil {
					resumed = m
				}
			}
			wantCut := []string{strconv.Itoa(len(wholeSecond)), "0", strconv.Itoa(linesSecond)}
			if cut == nil || !slices.Equal(cut[1:4], wantCut) {
				t.Errorf("want a notice that cuts %s bytes after 0 (%s whole lines) of the second file; notices %q", wantCut[0], wantCut[2], notices)
			}
			if resumed == nil || resumed[1] != strconv.Itoa(len(kept)) {
				t.Errorf("want %d URLs done, the first file's lines; notices %q", len(kept), notices)
			}
		})
	}
}

// A crawl stopped before the journal vouched for its last lines (a power
// cut took the last O entry) goes on with another -o (StateReuse): the
// file before is cut where the journal's entries end, and the pages of
// the lines cut are fetched again into the new file. Over the two files,
// each of the site's URLs is once.
func TestReuseWithAnotherOutputCutsWhatTheJournalDoesNotVouchFor(t *testing.T) {
	srv := wirelog.New(t)
	roots, want := powerCutSite(t, srv)
	cfg := stateConfig(t, roots...)
	first := cfg.Output
	runUntil(t, cfg, 16)
	journal := filepath.Join(cfg.State, "journal.1")
	whole, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	last := bytes.LastIndex(whole, []byte("\nO\t"))
	if last < 0 {
		t.Fatal("journal.1 holds no O entry to lose")
	}
	if err := os.WriteFile(journal, whole[:last+1], 0o644); err != nil {
		t.Fatal(err)
	}
	linesBefore := len(jsonlOf(t, first))

	cfg.Output, cfg.StateReuse = filepath.Join(filepath.Dir(first), "second.jsonl"), true
	_, notices := runUntil(t, cfg, 0)
	kept := jsonlOf(t, first)
	if len(kept) >= linesBefore {
		t.Fatalf("the first file kept its %d lines, though the journal vouches for fewer; notices %q", linesBefore, notices)
	}
	all := slices.Sorted(slices.Values(append(kept, jsonlOf(t, cfg.Output)...)))
	if !slices.Equal(all, want) {
		t.Fatalf("%d lines over both files, %d distinct, for the site's %d URLs; notices %q",
			len(all), len(slices.Compact(slices.Clone(all))), len(want), notices)
	}
	if !slices.ContainsFunc(notices, func(n string) bool {
		return strings.HasPrefix(n, first+": cut ") && strings.Contains(n, "fetched again, into "+cfg.Output)
	}) {
		t.Errorf("no notice says the first file was cut; notices %q", notices)
	}
}
