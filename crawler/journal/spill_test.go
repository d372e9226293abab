package journal_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"loopkit/crawler/journal"
)

// Chunks come back as written, in the order their names were handed out,
// and a read chunk is gone; a temporary spill leaves nothing behind.
func TestSpillChunksComeBackInOrder(t *testing.T) {
	s, err := journal.OpenSpill("")
	if err != nil {
		t.Fatal(err)
	}
	first, second := s.Name(), s.Name()
	a := []journal.Spilled{{URL: "http://a/1", Depth: 1, Redirects: 10}, {URL: "http://a/2", Depth: 2, Redirects: 9}}
	b := []journal.Spilled{{URL: "http://a/3", Depth: 3, Redirects: 8}}
	if err := s.Write(second, b); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(first, a); err != nil {
		t.Fatal(err)
	}
	if first >= second {
		t.Fatalf("names %q, %q out of order", first, second)
	}
	got, err := s.Read(first)
	if err != nil || !slices.Equal(got, a) {
		t.Fatalf("read %v %v, want %v", got, err, a)
	}
	if _, err := os.Stat(first); !os.IsNotExist(err) {
		t.Fatalf("a read chunk is still there: %v", err)
	}
	dir := filepath.Dir(second)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the temporary spill directory is still there: %v", err)
	}
}
