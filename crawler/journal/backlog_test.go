package journal_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
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
// to come, and 0 at the end.
func TestTheBacklogHandsOutTheRestInOrder(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out.jsonl")
	want := foldCrawl(t, state, out, 60)
	j := open(t, state)
	defer j.Close()
	got, s := replayUpfront(t, j, out, 5)
	if s.Later == nil || len(got) < 5 || len(got) >= len(want) || s.ToDo != len(got) {
		t.Fatalf("upfront %d URLs (summary %d), backlog %v: want at least 5, fewer than all %d, and a backlog", len(got), s.ToDo, s.Later, len(want))
	}
	defer s.Later.Close()
	for i := range 200 { // as the new run finds links: its own, which it has told its seen set
		write(t, j, queued(fmt.Sprintf("http://a.test/new/%d", i)))
	}
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
		if len(urls) > 5 {
			t.Fatalf("a batch of %d URLs, from a start that takes 5 upfront", len(urls))
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
