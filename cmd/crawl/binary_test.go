package main

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"loopkit/internal/wirelog"
)

// The tests in this file drive the real command, as a user would, in its
// own process: the test binary runs main() when LOOPKIT_CRAWL_MAIN is set,
// so no separate build is needed. What happened is judged from the
// server's arrival log.
func TestMain(m *testing.M) {
	if os.Getenv("LOOPKIT_CRAWL_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// crawlCmd is the crawl command with args, its stdout and stderr captured.
type crawlCmd struct {
	*exec.Cmd
	stdout, stderr bytes.Buffer
}

func startCrawl(t *testing.T, args ...string) *crawlCmd {
	t.Helper()
	c := &crawlCmd{Cmd: exec.Command(os.Args[0], args...)}
	c.Env = append(os.Environ(), "LOOPKIT_CRAWL_MAIN=1")
	c.Stdout, c.Stderr = &c.stdout, &c.stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	return c
}

// exit waits for the command, failing the test if it takes over a minute.
func (c *crawlCmd) exit(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		c.Process.Kill()
		t.Fatalf("crawl still running after a minute; stderr: %s", c.stderr.String())
	}
	return c.ProcessState.ExitCode()
}

// waitFor polls cond until it holds, failing the test after 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func reportCount(t *testing.T, report, name string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + name + `: (\d+)$`).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("no %s: line in the report:\n%s", name, head(report))
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// slowPages is a site of n pages that take d each to answer.
func slowPages(n int, d time.Duration) http.Handler {
	return wirelog.Fan(n, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(d)
		wirelog.Page(w)
	})
}

// The first Ctrl-C stops every new request at once: nothing arrives at the
// server after it, what was in flight finishes and is recorded, and every
// URL never sent is counted to do.
func TestFirstInterruptStartsNothingNew(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", slowPages(40, 100*time.Millisecond))
	out := filepath.Join(t.TempDir(), "out.jsonl")
	c := startCrawl(t, "-o", out, "--delay", "30ms", "--per_host", "2", base)
	waitFor(t, "five pages to arrive", func() bool { return len(srv.Arrivals("h")) >= 7 })
	c.Process.Signal(os.Interrupt)
	signalled := time.Now()
	if code := c.exit(t); code != 130 {
		t.Fatalf("exit %d, want 130; stderr: %s", code, c.stderr.String())
	}
	if late := srv.Within("h", signalled.Add(5*time.Millisecond), time.Now()); len(late) > 0 {
		t.Fatalf("%d requests arrived after the interrupt, the first %v after it", len(late), late[0].At.Sub(signalled))
	}
	pages := len(srv.Arrivals("h")) - 1 // robots.txt is not a page
	report := c.stdout.String()
	recs := readJSONL(t, out)
	if done := reportCount(t, report, "Done"); done != pages || len(recs) != pages {
		t.Fatalf("%d pages arrived, report says Done: %d, %d JSON lines", pages, done, len(recs))
	}
	if todo := reportCount(t, report, "Todo"); todo != 41-pages {
		t.Fatalf("Todo: %d, want the %d URLs never sent", todo, 41-pages)
	}
	for _, r := range recs {
		if r["exception"] != nil {
			t.Fatalf("a record with an error after a first interrupt: %v", r)
		}
	}
}

// A second Ctrl-C cancels what is in flight: the command ends at once,
// not after the grace period or the pages' 10 seconds, and the cancelled
// URLs are to do.
func TestSecondInterruptCancelsInFlight(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", slowPages(10, 10*time.Second))
	c := startCrawl(t, "--per_host", "4", base)
	waitFor(t, "pages in flight", func() bool { return len(srv.Arrivals("h")) >= 4 })
	c.Process.Signal(os.Interrupt)
	time.Sleep(100 * time.Millisecond)
	c.Process.Signal(os.Interrupt)
	start := time.Now()
	if code := c.exit(t); code != 130 {
		t.Fatalf("exit %d, want 130; stderr: %s", code, c.stderr.String())
	}
	// Under half the grace period (5 s): a second interrupt that did
	// nothing would end the crawl when the grace ran out, 5 s after the
	// first.
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Fatalf("the second interrupt took %v to end the crawl", took)
	}
	if todo := reportCount(t, c.stdout.String(), "Todo"); todo != 10 {
		t.Fatalf("Todo: %d, want all 10 pages (some were cancelled in flight)", todo)
	}
	if !strings.Contains(c.stderr.String(), "interrupted again: cancelling") {
		t.Fatalf("stderr does not say the second interrupt cancels: %s", c.stderr.String())
	}
}

// A hard kill loses nothing already recorded and leaves no torn line:
// the -o file is valid JSON Lines up to its end.
func TestHardKillLeavesValidJSONL(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", slowPages(200, 5*time.Millisecond))
	out := filepath.Join(t.TempDir(), "out.jsonl")
	c := startCrawl(t, "-o", out, "--per_host", "8", base)
	waitFor(t, "records on disk", func() bool {
		b, _ := os.ReadFile(out)
		return bytes.Count(b, []byte("\n")) >= 30
	})
	c.Process.Signal(syscall.SIGKILL)
	c.exit(t)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Fatalf("the file does not end with a whole line: %q", b[max(0, len(b)-80):])
	}
	if recs := readJSONL(t, out); len(recs) < 30 {
		t.Fatalf("%d records after a kill, want at least the 30 seen before it", len(recs))
	}
}

// The exit status says whether every root was crawled.
func TestExitStatusSaysWhetherEveryRootWasCrawled(t *testing.T) {
	srv := wirelog.New(t)
	good := srv.Host("good", wirelog.Fan(2, nil))
	missing := srv.Host("missing", http.NotFoundHandler())
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"every root crawled", []string{good}, 0, ""},
		{"a root whose robots.txt cannot be read", []string{"--max_tries", "1", good, "https://127.0.0.1:1/"}, 1, "robots.txt: "},
		{"a root that is a 404", []string{missing + "/"}, 1, "status 404"},
		{"nothing fetched", []string{"--max_tries", "1", "http://" + wirelog.ClosedPort(t) + "/"}, 1, "connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"-q"}, tc.args...), &stdout, &stderr, nil)
			if code != tc.code || !strings.Contains(stderr.String(), tc.stderr) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tc.code, tc.stderr)
			}
		})
	}
}
