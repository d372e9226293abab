package journal_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"loopkit/crawler/journal"
)

// A resumed output file keeps its whole lines, tells their URLs as done,
// cuts a torn last line with a notice, and is appended to, never emptied.
func TestResumeCutsATornLineAndAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.jsonl")
	whole := `{"url":"http://a.test/","status":200}` + "\n" + `{"url":"http://a.test/x?a=1\u0026b=2","status":404}` + "\n"
	if err := os.WriteFile(path, []byte(whole+`{"url":"http://a.test/to`), 0o644); err != nil {
		t.Fatal(err)
	}
	var done []string
	o, err := journal.Resume(path, func(u string) { done = append(done, u) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"http://a.test/", "http://a.test/x?a=1&b=2"}; !slices.Equal(done, want) {
		t.Fatalf("done %q, want %q", done, want)
	}
	if n := o.Notices(); len(n) != 1 || !strings.Contains(n[0], "cut a torn last line") {
		t.Fatalf("notices %q", n)
	}
	if _, err := o.Write([]byte(`{"url":"http://a.test/to","status":200}` + "\n")); err != nil {
		t.Fatal(err)
	}
	o.Close()
	b, _ := os.ReadFile(path)
	if got, want := string(b), whole+`{"url":"http://a.test/to","status":200}`+"\n"; got != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
}

// A file that is not a crawl's output is refused, and left as it was.
func TestResumeRefusesAForeignFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	text := "my notes\nabout the crawl\n"
	os.WriteFile(path, []byte(text), 0o644)
	if _, err := journal.Resume(path, nil); err == nil || !strings.Contains(err.Error(), "line 1: not a crawl record") {
		t.Fatalf("resume of a foreign file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != text {
		t.Fatalf("the foreign file was changed: %q", b)
	}
}

// An output that is not a regular file (/dev/null, a pipe) is written
// to, and has nothing to sync: Sync and Close say nothing went wrong.
func TestAnOutputThatIsNoFileHasNothingToSync(t *testing.T) {
	o, err := journal.Create(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	if o.Regular() {
		t.Fatal("/dev/null taken for a regular file")
	}
	if _, err := o.Write([]byte(`{"url":"http://a.test/"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if err := o.Sync(); err != nil {
		t.Fatalf("Sync: %v", err)
	}
	if err := o.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// Create starts a new output: a file that is already there is emptied
// first, so the lines of an earlier crawl do not stay in front of the
// new crawl's lines, and the new lines start at byte 0.
func TestCreateEmptiesAFileThatIsThere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.jsonl")
	old := `{"url":"http://old.test/","status":200}` + "\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := journal.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := o.Size(); n != 0 {
		t.Fatalf("a new output holds %d bytes before its first line; want 0", n)
	}
	line := `{"url":"http://a.test/","status":200}` + "\n"
	if from, err := o.Write([]byte(line)); err != nil || from != 0 {
		t.Fatalf("the first line went to byte %d (%v); want 0", from, err)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != line {
		t.Fatalf("file:\n%s\nwant only the new line:\n%s", b, line)
	}
}
