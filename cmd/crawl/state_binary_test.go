package main

import (
	"bytes"
	"fmt"
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

// jsonlURLs reads the URLs of the whole lines of a JSON Lines file.
func jsonlURLs(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	for _, r := range readJSONL(t, path) {
		out = append(out, r["url"].(string))
	}
	return out
}

// A crawl with --state, killed with SIGKILL in the middle, then run again
// with the same command, ends with every URL's line in the JSON Lines
// exactly once; at the server, no URL was fetched more than twice, and at
// most --max_tasks were fetched twice (those in flight at the kill).
func TestKilledCrawlGoesOnWhereItWas(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", slowPages(300, 3*time.Millisecond))
	dir := t.TempDir()
	out, state := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "state")
	args := []string{"-q", "-o", out, "--state", state, "--max_tasks", "8", "--per_host", "8", base}
	c := startCrawl(t, args...)
	waitFor(t, "a hundred records on disk", func() bool {
		b, _ := os.ReadFile(out)
		return bytes.Count(b, []byte("\n")) >= 100
	})
	c.Process.Signal(syscall.SIGKILL)
	c.exit(t)
	before := len(srv.Arrivals("h"))

	c = startCrawl(t, args...)
	if code := c.exit(t); code != 0 {
		t.Fatalf("the resumed crawl: exit %d; stderr: %s", code, c.stderr.String())
	}
	urls := jsonlURLs(t, out)
	want := []string{base + "/"}
	for i := range 300 {
		want = append(want, fmt.Sprintf("%s/p%d", base, i))
	}
	slices.Sort(urls)
	slices.Sort(want)
	if !slices.Equal(urls, want) {
		t.Fatalf("%d lines over both runs, %d distinct; want the site's %d URLs once each",
			len(urls), len(slices.Compact(slices.Clone(urls))), len(want))
	}
	counts := map[string]int{}
	for _, a := range srv.Arrivals("h") {
		counts[a.Path]++
	}
	twice := 0
	for path, n := range counts {
		switch {
		case n > 2:
			t.Errorf("%s fetched %d times", path, n)
		case n == 2 && path != "/robots.txt":
			twice++
		}
	}
	if twice > 8 {
		t.Errorf("%d pages fetched twice, more than the 8 --max_tasks that can be in flight at a kill", twice)
	}
	t.Logf("first run: %d requests; resumed: %d; fetched twice: %d", before, len(srv.Arrivals("h"))-before, twice)
}

// A state directory of another crawl is refused, saying why and what to
// do; --state_reuse goes on with it.
func TestStateOfAnotherCrawlIsRefused(t *testing.T) {
	srv := wirelog.New(t)
	a := srv.Host("a", wirelog.Fan(3, nil))
	b := srv.Host("b", wirelog.Fan(3, nil))
	state := filepath.Join(t.TempDir(), "state")
	if c := startCrawl(t, "-q", "--state", state, a); c.exit(t) != 0 {
		t.Fatalf("first crawl: %s", c.stderr.String())
	}
	c := startCrawl(t, "-q", "--state", state, b)
	if code := c.exit(t); code != 1 || !strings.Contains(c.stderr.String(), "holds another crawl (roots was") ||
		!strings.Contains(c.stderr.String(), "--state_reuse") {
		t.Fatalf("another crawl's directory: exit %d, stderr %q", code, c.stderr.String())
	}
	if n := len(srv.Arrivals("b")); n != 0 {
		t.Fatalf("%d requests reached b, whose crawl was refused", n)
	}
	if c := startCrawl(t, "-q", "--state", state, "--state_reuse", b); c.exit(t) != 0 {
		t.Fatalf("with --state_reuse: %s", c.stderr.String())
	}
}

// Two crawls on one state directory: the second is refused at once, and
// the first goes on.
func TestStateInUseIsRefused(t *testing.T) {
	t.Parallel() // its own server, state and crawl processes; it mostly waits
	srv := wirelog.New(t)
	base := srv.Host("h", slowPages(20, 50*time.Millisecond))
	state := filepath.Join(t.TempDir(), "state")
	first := startCrawl(t, "-q", "--state", state, "--per_host", "1", base)
	waitFor(t, "the first crawl to start", func() bool { return len(srv.Arrivals("h")) >= 2 })
	second := startCrawl(t, "-q", "--state", state, base)
	if code := second.exit(t); code != 1 || !strings.Contains(second.stderr.String(), "in use by another crawl") {
		t.Fatalf("second crawl: exit %d, stderr %q", code, second.stderr.String())
	}
	if code := first.exit(t); code != 0 {
		t.Fatalf("first crawl: exit %d; stderr %s", code, first.stderr.String())
	}
}

// No room to write (here, the process's file size limit) stops the crawl
// with a clear error and exit status 1, and leaves the directory such
// that the same command, with room, goes on and finishes.
func TestNoRoomStopsTheCrawlAndLosesNothing(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(400, nil))
	dir := t.TempDir()
	out, state := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "state")
	args := []string{"-q", "-o", out, "--state", state, base}
	// ulimit -f counts 512-byte blocks: 32 KiB for each file.
	limited := &crawlCmd{Cmd: exec.Command("sh", append([]string{"-c", `ulimit -f 64 && exec "$0" "$@"`, os.Args[0]}, args...)...)}
	limited.Env = append(os.Environ(), "LOOPKIT_CRAWL_MAIN=1")
	limited.Stdout, limited.Stderr = &limited.stdout, &limited.stderr
	if err := limited.Start(); err != nil {
		t.Fatal(err)
	}
	if code := limited.exit(t); code != 1 || !strings.Contains(limited.stderr.String(), "no room to write") {
		t.Fatalf("out of room: exit %d, stderr %q", code, limited.stderr.String())
	}
	c := startCrawl(t, args...)
	if code := c.exit(t); code != 0 {
		t.Fatalf("the crawl with room: exit %d; stderr %s", code, c.stderr.String())
	}
	urls := jsonlURLs(t, out)
	if n, distinct := len(urls), len(slices.Compact(slices.Sorted(slices.Values(urls)))); n != 401 || distinct != 401 {
		t.Fatalf("%d lines, %d distinct; want the site's 401 URLs once each", n, distinct)
	}
}

// A finished crawl run again with its --state has nothing left to do: it
// fetches nothing, says so, and exits 0.
func TestFinishedCrawlRunAgainDoesNothing(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(5, nil))
	state := filepath.Join(t.TempDir(), "state")
	if c := startCrawl(t, "-q", "--state", state, base); c.exit(t) != 0 {
		t.Fatalf("first run: %s", c.stderr.String())
	}
	before := len(srv.Arrivals("h"))
	c := startCrawl(t, "--state", state, base)
	if code := c.exit(t); code != 0 || !strings.Contains(c.stderr.String(), "nothing was left to do") {
		t.Fatalf("second run: exit %d, stderr %q", code, c.stderr.String())
	}
	if n := len(srv.Arrivals("h")) - before; n != 0 {
		t.Fatalf("%d requests on a finished crawl's second run", n)
	}
}
