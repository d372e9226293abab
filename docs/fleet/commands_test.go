// Package fleetdoc runs the commands of docs/fleet.md, as written, against
// a real redis-server.
package fleetdoc

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"loopkit/site"
)

const root = "../.." // this test runs in docs/fleet

// block is the first ```sh block after heading in doc.
func block(t *testing.T, doc, heading string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no heading %q", doc, heading)
	}
	_, after, ok = strings.Cut(after, "```sh\n")
	body, _, ok2 := strings.Cut(after, "```\n")
	if !ok || !ok2 {
		t.Fatalf("%s: no ```sh block after %q", doc, heading)
	}
	return body
}

// freePorts finds n consecutive free ports on 127.0.0.1 (which another
// process could take before they are used: the test is tried again then).
func freePorts(t *testing.T, n int) int {
	t.Helper()
	for range 50 {
		base := 20000 + rand.IntN(30000)
		var lns []net.Listener
		for p := base; p < base+n; p++ {
			ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
			if err != nil {
				break
			}
			lns = append(lns, ln)
		}
		for _, ln := range lns {
			ln.Close()
		}
		if len(lns) == n {
			return base
		}
	}
	t.Fatal("no free ports")
	return 0
}

// runOnFreePorts runs the chapter's script in a directory of its own,
// with its ports moved to free ones, and returns the directory, the
// site's first port and what the script printed. Another test may bind
// a port between freePorts and the script's own bind: the script is run
// again, on other ports, when its output says a port was in use.
func runOnFreePorts(t *testing.T, script string, hosts int) (dir string, base int, out string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		dir = t.TempDir()
		base = freePorts(t, hosts)
		redisPort := freePorts(t, 1)
		run := strings.NewReplacer(
			"/tmp/fleet", dir,
			"6379", strconv.Itoa(redisPort),
			"9000", strconv.Itoa(base),
			fmt.Sprint(9000+hosts-1), strconv.Itoa(base+hosts-1),
		).Replace(script)
		out, err := runScript(t, run)
		if attempt < 3 && strings.Contains(strings.ToLower(out), "address already in use") {
			t.Logf("attempt %d: a port was taken before the script bound it; again on other ports", attempt)
			continue
		}
		if err != nil {
			t.Fatalf("the commands failed: %v\n%s", err, out)
		}
		return dir, base, out
	}
}

// runScript runs a bash script from the module's root, for at most five
// minutes, and kills what it left running when the test ends.
func runScript(t *testing.T, script string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = root
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its background jobs go with it
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what the script left in the background
		return out.String(), err
	case <-time.After(5 * time.Minute):
		t.Fatalf("the commands still ran after five minutes:\n%s", out.String())
		return "", nil
	}
}

// The chapter's first commands build the crawler and the demo site, start
// a Redis and the site, run three processes of one crawl and wait for
// them: run as written (on free ports, in a directory of the test's own),
// every process reports, and together they wrote every page of the site
// once, as many lines as the chapter says.
func TestTheChaptersCommandsRunAsWritten(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		msg := "redis-server is not installed: apt-get install redis-server (Debian package redis-server)"
		if os.Getenv("LOOPKIT_REDIS_REQUIRED") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if testing.Short() {
		t.Skip("builds two programs and crawls 2,000 pages: not with -short")
	}
	script := block(t, "docs/fleet.md", "## Three crawlers on one laptop")
	m := regexp.MustCompile(`-pages (\d+) -hosts (\d+)`).FindStringSubmatch(script)
	count := regexp.MustCompile(`wc -l +# (\d+):`).FindStringSubmatch(script)
	if m == nil || count == nil {
		t.Fatalf("the block names no site (-pages, -hosts) or no count after wc -l:\n%s", script)
	}
	pages, _ := strconv.Atoi(m[1])
	hosts, _ := strconv.Atoi(m[2])
	want, _ := strconv.Atoi(count[1])

	dir, base, out := runOnFreePorts(t, script, hosts)
	if !strings.Contains(out, fmt.Sprintf("%d\n", want)) {
		t.Errorf("wc -l did not print the chapter's %d:\n%s", want, out)
	}

	// What a correct crawl of that site fetches, by host and path.
	s, err := site.Start(site.Config{Pages: pages, Hosts: hosts}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	expected := map[string]bool{}
	for _, u := range s.Expected(true) {
		expected[hostAndPath(t, u, s.URLs())] = true
	}
	roots := make([]string, hosts)
	for i := range roots {
		roots[i] = fmt.Sprintf("http://127.0.0.1:%d/", base+i)
	}
	got := map[string]int{}
	lines := 0
	for _, name := range []string{"a", "b", "c"} {
		report, err := os.ReadFile(filepath.Join(dir, name+".txt"))
		if err != nil || !strings.Contains(string(report), "*** Fleet ***") {
			t.Errorf("process %s printed no report with the fleet's tallies (%v):\n%s", name, err, report)
		}
		b, err := os.ReadFile(filepath.Join(dir, name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if line == "" {
				continue // a process that found no work
			}
			var r struct{ URL string }
			if err := json.Unmarshal([]byte(line), &r); err != nil || r.URL == "" {
				t.Fatalf("%s.jsonl: a line without a url (%v): %s", name, err, line)
			}
			got[hostAndPath(t, r.URL, roots)]++
			lines++
		}
	}
	for k, n := range got {
		if n != 1 || !expected[k] {
			t.Errorf("%s written %d times (in the site: %v)", k, n, expected[k])
		}
	}
	if len(got) != len(expected) || lines != want {
		t.Fatalf("the processes wrote %d lines, %d distinct pages; the site has %d, the chapter says %d", lines, len(got), len(expected), want)
	}
}

// hostAndPath is u as host index and path, the index being where u's
// origin is among roots.
func hostAndPath(t *testing.T, raw string, roots []string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(roots, func(r string) bool { return strings.HasPrefix(r, u.Scheme+"://"+u.Host+"/") })
	if i < 0 {
		t.Fatalf("%s is on none of the site's hosts %v", raw, roots)
	}
	return fmt.Sprintf("%d%s", i, u.RequestURI())
}
