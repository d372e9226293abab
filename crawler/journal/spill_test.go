package journal_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// A spill in a given directory starts it empty and leaves it on Close; a
// chunk that holds anything but queued URLs is refused; a URL longer than
// a scanner's default line (64 KiB) comes back whole.
func TestASpillDirectoryStartsEmpty(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "stale.chunk"), []byte("left by a crawl before"), 0o644)
	s, err := journal.OpenSpill(dir)
	if err != nil {
		t.Fatal(err)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Fatalf("the spill directory holds %d files at the start", len(names))
	}
	long := []journal.Spilled{{URL: "http://a/" + strings.Repeat("x", 100_000), Depth: 1}}
	name := s.Name()
	if err := s.Write(name, long); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Read(name); err != nil || !slices.Equal(got, long) {
		t.Fatalf("a long URL read back as %d URLs, %v", len(got), err)
	}
	other := s.Name()
	os.WriteFile(other, journal.AppendSent(nil, "http://a/1"), 0o644)
	if got, err := s.Read(other); err == nil {
		t.Fatalf("a chunk of S entries read as %v", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("a given spill directory was removed: %v", err)
	}
}

// Dir is where the chunks go: the directory given, or the temporary one
// made, which the chunks' names are in.
func TestASpillSaysItsDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	s, err := journal.OpenSpill(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Dir() != dir || filepath.Dir(s.Name()) != dir {
		t.Fatalf("Dir %q, a chunk's name in %q; want %q", s.Dir(), filepath.Dir(s.Name()), dir)
	}
	tmp, err := journal.OpenSpill("")
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Close()
	if st, err := os.Stat(tmp.Dir()); err != nil || !st.IsDir() || filepath.Dir(tmp.Name()) != tmp.Dir() {
		t.Fatalf("a temporary spill's Dir %q: %v", tmp.Dir(), err)
	}
}
