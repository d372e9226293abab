package journal_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/crawler/journal"
)

// replayUpfront replays the crawl in state as a start does with
// Visitor.Upfront set, begins it, and returns what Queued heard and the
// summary.
func replayUpfront(t *testing.T, j *journal.Journal, out string, upfront int) ([]string, journal.Summary) {
	t.Helper()
	o, err := journal.Append(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	var got []string
	s, err := j.Replay(time.Now(), journal.Visitor{Upfront: upfront, Queued: func(u string, depth, redirects int32) {
		got = append(got, fmt.Sprintf("%s %d %d", u, depth, redirects))
	}}, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Begin(); err != nil {
		t.Fatal(err)
	}
	return got, s
}

// With Upfront, a start hands out the first URLs to do and returns; the
// rest come from its Backlog, read from the snapshot and the journal as
// asked for: together, exactly what a start without Upfront hands out,
// in the same order, those sent before the stop last. What the new run
// writes to the journal meanwhile — links it found, queued — is not read
// back as the crawl before it left them. Left is at most what is still
// to come, and 0 at the end. Its batches hold as many URLs as the start
// took upfront, but the last, which holds the rest and is not empty:
// here 61 URLs to do, 12 batches of 5 and one of 1 (seen failing with
// the last one lost), or 61 batches of 1 (and no empty one after them).
func TestTheBacklogHandsOutTheRestInOrder(t *testing.T) {
	for _, upfront := range []int{5, 1} {
		t.Run(fmt.Sprint("upfront ", upfront), func(t *testing.T) { backlogHandsOutTheRestInOrder(t, upfront) })
	}
}

func backlogHandsOutTheRestInOrder(t *testing.T, upfront int) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	want := foldCrawl(t, state, out, 60)
	j := open(t, state)
	defer j.Close()
	got, s := replayUpfront(t, j, out, upfront)
	if s.Later == nil || len(got) < upfront || len(got) >= len(want) || s.ToDo != len(got) {
		t.Fatalf("upfront %d URLs (summary %d), backlog %v: want at least %d, fewer than all %d, and a backlog", len(got), s.ToDo, s.Later, upfront, len(want))
	}
	defer s.Later.Close()
	for i := range 200 { // as the new run finds links: its own, which it has told its seen set
		write(t, j, queued(fmt.Sprintf("http://a.test/new/%d", i)))
	}
	short := 0 // a batch of fewer than upfront: the last, if any
	for {
		if left, rest := s.Later.Left(), len(want)-len(got); left < rest {
			t.Fatalf("Left says at most %d to come, but %d are", left, rest)
		}
		before := s.Later.Left()
		urls, err := s.Later.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if after := s.Later.Left(); after > before-len(urls) {
			t.Fatalf("Left says %d after a batch of %d, %d before it", after, len(urls), before)
		}
		if len(urls) == 0 {
			t.Fatal("an empty batch")
		}
		if len(urls) > upfront || short > 0 {
			t.Fatalf("a batch of %d URLs, after one of %d, from a start that takes %d upfront", len(urls), short, upfront)
		}
		if len(urls) < upfront {
			short = len(urls)
		}
		for _, u := range urls {
			got = append(got, fmt.Sprintf("%s %d %d", u.URL, u.Depth, u.Redirects))
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("upfront and backlog together:\n%v\nwant\n%v", got, want)
	}
	if n := s.Later.Left(); n != 0 {
		t.Fatalf("Left says %d after the end", n)
	}
	if urls, err := s.Later.Next(context.Background()); !errors.Is(err, io.EOF) {
		t.Fatalf("Next after the end: %d URLs, %v; want io.EOF again", len(urls), err)
	}
}

// A backlog closed half way lets its files go and ends its reader: Next
// says so, and says it again; Left still says what was left.
func TestAClosedBacklogStops(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	foldCrawl(t, state, out, 60)
	j := open(t, state)
	defer j.Close()
	_, s := replayUpfront(t, j, out, 2)
	if s.Later == nil {
		t.Fatal("no backlog")
	}
	if _, err := s.Later.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	left := s.Later.Left()
	s.Later.Close()
	for range 2 {
		if urls, err := s.Later.Next(context.Background()); !errors.Is(err, journal.ErrBacklogClosed) {
			t.Fatalf("Next after Close: %d URLs, %v; want ErrBacklogClosed", len(urls), err)
		}
	}
	if n := s.Later.Left(); n > left || n == 0 { // the reader may have passed over a URL done since, meanwhile
		t.Fatalf("Left says %d after Close, %d before", n, left)
	}
}

// A start whose queue is shorter than Upfront hands it all out, and has
// no backlog.
func TestAShortQueueHasNoBacklog(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	want := foldCrawl(t, state, out, 60)
	j := open(t, state)
	defer j.Close()
	got, s := replayUpfront(t, j, out, len(want)+1)
	if s.Later != nil || !slices.Equal(got, want) {
		t.Fatalf("to do %v, backlog %v; want all %d and none", got, s.Later, len(want))
	}
}

// A backlog that meets a damaged entry in the snapshot's queue ends with
// an error, and from then on Next says io.EOF. Left then says 0: no more
// URLs will come, so a crawler that waits for Left to reach 0 before it
// calls its crawl finished is not left waiting.
func TestTheBacklogSaysNothingIsLeftOnceItEnds(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	foldCrawl(t, state, out, 60)
	snaps, _ := filepath.Glob(filepath.Join(state, "snapshot.*"))
	if len(snaps) != 1 {
		t.Fatalf("snapshots %v; want one", snaps)
	}
	// Damage a URL half way through the snapshot's queue: its entry's
	// CRC no longer matches, and the backlog finds it when it gets there.
	b, err := os.ReadFile(snaps[0])
	if err != nil {
		t.Fatal(err)
	}
	var qs []int // where each Q entry starts
	for at := 0; at < len(b); {
		if b[at] == 'Q' && b[at+1] == '\t' {
			qs = append(qs, at)
		}
		next := bytes.IndexByte(b[at:], '\n')
		if next < 0 {
			break
		}
		at += next + 1
	}
	if len(qs) < 10 {
		t.Fatalf("the snapshot's queue holds %d URLs; want at least 10", len(qs))
	}
	mid := qs[len(qs)/2]
	i := mid + bytes.Index(b[mid:], []byte("a.test"))
	b[i] = 'b'
	if err := os.WriteFile(snaps[0], b, 0o644); err != nil {
		t.Fatal(err)
	}

	j := open(t, state)
	defer j.Close()
	_, s := replayUpfront(t, j, out, 2)
	if s.Later == nil {
		t.Fatal("no backlog")
	}
	defer s.Later.Close()
	var nextErr error
	for range 1000 {
		if _, nextErr = s.Later.Next(context.Background()); nextErr != nil {
			break
		}
	}
	if nextErr == nil || errors.Is(nextErr, io.EOF) || !strings.Contains(nextErr.Error(), "damaged") {
		t.Fatalf("the backlog ended with %v; want an error saying the snapshot is damaged", nextErr)
	}
	if urls, err := s.Later.Next(context.Background()); !errors.Is(err, io.EOF) {
		t.Fatalf("Next after the error: %d URLs, %v; want io.EOF", len(urls), err)
	}
	if n := s.Later.Left(); n != 0 {
		t.Fatalf("Left says %d once the backlog has ended; want 0", n)
	}
}
