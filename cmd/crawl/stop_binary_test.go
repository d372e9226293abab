package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"loopkit/internal/wirelog"
)

// Stopped by SIGTERM, as a service manager stops it, the command exits
// 143, the shell's 128 + 15; by Ctrl-C, 130. --help says so.
func TestStopSignalsExitStatus(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		srv := wirelog.New(t)
		base := srv.Host("h", slowPages(20, 50*time.Millisecond))
		c := startCrawl(t, "-q", "--per_host", "1", base)
		waitFor(t, "a page to arrive", func() bool { return len(srv.Arrivals("h")) >= 2 })
		c.Process.Signal(tc.sig)
		if code := c.exit(t); code != tc.want {
			t.Errorf("%v: exit %d, want %d; stderr %s", tc.sig, code, tc.want, c.stderr.String())
		}
	}
	help := startCrawl(t, "-h")
	help.exit(t)
	if s := strings.Join(strings.Fields(help.stdout.String()), " "); !strings.Contains(s, "130 interrupted by Ctrl-C (SIGINT), 143 stopped by SIGTERM") {
		t.Fatalf("--help does not give the exit statuses of the stops:\n%s", s)
	}
}

// -o takes what is not a regular file: /dev/null and /dev/stdout, with
// or without --state, and a pipe (here a named one). Nothing fails at
// the end for want of an fsync they cannot do; the lines reach the
// pipe and stdout.
func TestOutputToDevicesAndPipes(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(5, nil))
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-o", "/dev/null"},
		{"-o", "/dev/null", "--state", filepath.Join(dir, "null-state")},
		{"-o", "/dev/stdout"},
		{"-o", "/dev/stdout", "--state", filepath.Join(dir, "stdout-state")},
	} {
		c := startCrawl(t, append([]string{"-q"}, append(args, base)...)...)
		if code := c.exit(t); code != 0 {
			t.Errorf("%v: exit %d; stderr %s", args, code, c.stderr.String())
			continue
		}
		if lines := jsonLines(c.stdout.Bytes()); args[1] == "/dev/stdout" && lines != 6 {
			t.Errorf("%v: %d JSON lines on stdout, want the site's 6", args, lines)
		}
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	read := make(chan int)
	go func() {
		f, err := os.Open(fifo) // blocks until the crawl opens it to write
		if err != nil {
			read <- -1
			return
		}
		defer f.Close()
		b, _ := readAll(f)
		read <- jsonLines(b)
	}()
	c := startCrawl(t, "-q", "-o", fifo, base)
	if code := c.exit(t); code != 0 {
		t.Fatalf("-o a pipe: exit %d; stderr %s", code, c.stderr.String())
	}
	if n := <-read; n != 6 {
		t.Fatalf("%d JSON lines through the pipe, want 6", n)
	}
}

func readAll(f *os.File) ([]byte, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(f)
	return b.Bytes(), err
}

// jsonLines counts the lines of b that are crawl records.
func jsonLines(b []byte) int {
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var r struct{ URL string }
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.URL != "" {
			n++
		}
	}
	return n
}

// A start that fails on -o (a directory that does not exist) leaves the
// state directory as it was: the corrected command is a new crawl, not
// another crawl's refused.
func TestSettingsWrittenOnlyOnceTheCrawlCouldStart(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(3, nil))
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	bad := startCrawl(t, "-q", "--state", state, "-o", filepath.Join(dir, "missing", "out.jsonl"), base)
	if code := bad.exit(t); code != 1 {
		t.Fatalf("-o in a missing directory: exit %d; stderr %s", code, bad.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(state, "crawl.json")); !os.IsNotExist(err) {
		t.Fatalf("a start that failed wrote the settings: %v", err)
	}
	good := startCrawl(t, "-q", "--state", state, "-o", filepath.Join(dir, "out.jsonl"), base)
	if code := good.exit(t); code != 0 {
		t.Fatalf("the corrected command: exit %d; stderr %s", code, good.stderr.String())
	}
}

// A new --state with an -o that already holds lines is refused: they are
// not this crawl's, and it would take them as done (or cut them).
func TestNewStateRefusesAFullOutput(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(3, nil))
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jsonl")
	old := []byte(`{"url":"http://elsewhere.test/","status":200}` + "\n")
	os.WriteFile(out, old, 0o644)
	c := startCrawl(t, "-q", "--state", filepath.Join(dir, "state"), "-o", out, base)
	if code := c.exit(t); code != 1 || !strings.Contains(c.stderr.String(), "has never written to it") {
		t.Fatalf("exit %d, stderr %q", code, c.stderr.String())
	}
	if b, _ := os.ReadFile(out); !bytes.Equal(b, old) {
		t.Fatalf("the file was changed: %q", b)
	}
	if n := len(srv.Arrivals()); n != 0 {
		t.Fatalf("%d requests from a refused crawl", n)
	}
}

// --state_reuse with another -o goes on where the crawl was: the pages
// done are done (the journal says so), and the new file gets the rest.
func TestStateReuseWithAnotherOutputFetchesOnlyWhatIsLeft(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", slowPages(30, 20*time.Millisecond))
	dir := t.TempDir()
	state, first, second := filepath.Join(dir, "state"), filepath.Join(dir, "first.jsonl"), filepath.Join(dir, "second.jsonl")
	c := startCrawl(t, "-q", "--state", state, "-o", first, "--per_host", "2", base)
	waitFor(t, "ten records", func() bool { b, _ := os.ReadFile(first); return bytes.Count(b, []byte("\n")) >= 10 })
	c.Process.Signal(os.Interrupt)
	c.exit(t)
	before := len(srv.Arrivals("h"))
	c = startCrawl(t, "-q", "--state", state, "-o", second, "--state_reuse", base)
	if code := c.exit(t); code != 0 {
		t.Fatalf("exit %d; stderr %s", code, c.stderr.String())
	}
	a, b := jsonlURLs(t, first), jsonlURLs(t, second)
	all := slices.Sorted(slices.Values(append(slices.Clone(a), b...)))
	if len(all) != 31 || len(slices.Compact(all)) != 31 {
		t.Fatalf("%d lines in the first file and %d in the second, for the site's 31 URLs", len(a), len(b))
	}
	if again := len(srv.Arrivals("h")) - before; again != len(b) {
		t.Fatalf("%d requests on the second run for %d lines: pages done were fetched again", again, len(b))
	}
}

// After a full disk, the message is said once, and nothing more is
// handed out: what arrives at the server and is not written is at most
// what was in flight, --max_tasks.
func TestFullDiskSaysSoOnceAndStopsAtOnce(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(600, nil))
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jsonl")
	args := []string{"-o", out, "--state", filepath.Join(dir, "state"), "--max_tasks", "10", "--per_host", "8", "--loops", "2", base}
	c := &crawlCmd{Cmd: exec.Command("sh", append([]string{"-c", `ulimit -f 64 && exec "$0" "$@"`, os.Args[0]}, args...)...)}
	c.Env = append(os.Environ(), "LOOPKIT_CRAWL_MAIN=1")
	c.Stdout, c.Stderr = &c.stdout, &c.stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if code := c.exit(t); code != 1 {
		t.Fatalf("exit %d; stderr %s", code, c.stderr.String())
	}
	if n := strings.Count(c.stderr.String(), "no room to write"); n != 1 {
		t.Fatalf("said %d times, want once:\n%s", n, c.stderr.String())
	}
	pages := len(srv.Arrivals("h")) - srv.Count("h", "/robots.txt")
	if written := len(jsonlURLs(t, out)); pages-written > 10 {
		t.Fatalf("%d pages arrived and %d were written: more than the 10 in flight were handed out after the disk was full", pages, written)
	}
}
