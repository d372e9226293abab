package main

import (
	"bufio"
	"bytes"
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

	"loopkit/crawler/journal"
	"loopkit/internal/e2e"
	"loopkit/site"
)

// chapterBlocks returns docs/journal.md's ```sh and ```text blocks, in
// order, each as its lines.
func chapterBlocks(t *testing.T) (sh, text [][]string) {
	t.Helper()
	f, err := os.Open("../../docs/journal.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cur *[]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur == nil && line == "```sh":
			sh = append(sh, nil)
			cur = &sh[len(sh)-1]
		case cur == nil && line == "```text":
			text = append(text, nil)
			cur = &text[len(text)-1]
		case cur != nil && line == "```":
			cur = nil
		case cur != nil:
			*cur = append(*cur, line)
		}
	}
	return sh, text
}

// chapterCommand runs one line of a chapter's shell block in dir, as
// written: "go run ./cmd/crawl" is this test binary playing the command;
// anything else goes to sh.
func chapterCommand(t *testing.T, dir, line string) *crawlCmd {
	t.Helper()
	var c *crawlCmd
	if rest, ok := strings.CutPrefix(line, "go run ./cmd/crawl "); ok {
		c = &crawlCmd{Cmd: exec.Command(os.Args[0], strings.Fields(rest)...)}
		c.Env = append(os.Environ(), "LOOPKIT_CRAWL_MAIN=1")
	} else {
		c = &crawlCmd{Cmd: exec.Command("sh", "-c", line)}
	}
	c.Dir = dir
	c.Stdout, c.Stderr = &c.stdout, &c.stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	return c
}

// killMidway waits until the crawl has written lines records to path,
// then kills it (kill -9).
func killMidway(t *testing.T, c *crawlCmd, path string, lines int) {
	t.Helper()
	waitFor(t, "records on disk", func() bool {
		b, _ := os.ReadFile(path)
		return bytes.Count(b, []byte("\n")) >= lines
	})
	c.Process.Signal(syscall.SIGKILL)
	c.exit(t)
}

// demoExpected is what a correct crawl of the demo site that a crawl in
// state crawled fetches: the site, with the command's --demo_pages, on
// the port crawl.json says.
func demoExpected(t *testing.T, state string, pages int) []string {
	t.Helper()
	s, ok, err := journal.ReadSettings(state)
	if err != nil || !ok {
		t.Fatalf("no settings in %s: %v", state, err)
	}
	u, _ := url.Parse(s.Roots[0])
	demo, err := site.Start(site.Config{Pages: pages}, u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer demo.Close()
	return demo.Expected(true)
}

// checkExactSet fails unless the JSON Lines file at path holds each of
// want once, and nothing else.
func checkExactSet(t *testing.T, path string, want []string) {
	t.Helper()
	got := jsonlURLs(t, path)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("%s: %d lines, %d distinct; want the site's %d URLs once each",
			path, len(got), len(slices.Compact(slices.Clone(got))), len(want))
	}
}

// docs/journal.md's commands, as written: the chapter's first example,
// killed in the middle and run again, exits 0 with each of the demo
// site's URLs once (the demo keeps its port); and its power cut, played
// by hand, says in notices of the chapter's shape what it cut, and ends
// the same.
func TestJournalChapterCommands(t *testing.T) {
	e2e.Only(t, "crawls the chapter's 20,000-page demo four times, about 6 s")
	sh, text := chapterBlocks(t)
	if len(sh) < 2 || len(text) < 1 {
		t.Fatalf("docs/journal.md has %d sh blocks and %d text blocks; want the first example, the power cut, and its output", len(sh), len(text))
	}
	pages := regexp.MustCompile(`--demo_pages (\d+)`)

	first := commandsOf(sh[0])
	if len(first) != 2 || first[0] != first[1] {
		t.Fatalf("the first example is %q: want one command, run twice", first)
	}
	dir := t.TempDir()
	killMidway(t, chapterCommand(t, dir, first[0]), filepath.Join(dir, "pages.jsonl"), 2000)
	again := chapterCommand(t, dir, first[1])
	if code := again.exit(t); code != 0 {
		t.Fatalf("run again as written: exit %d; stderr %s", code, again.stderr.String())
	}
	n := atoi(t, pages.FindStringSubmatch(first[0])[1])
	checkExactSet(t, filepath.Join(dir, "pages.jsonl"), demoExpected(t, filepath.Join(dir, "crawl-state"), n))

	cut := commandsOf(sh[1])
	if len(cut) != 3 || !strings.HasPrefix(cut[1], "truncate ") {
		t.Fatalf("the power cut is %q: want a crawl, a truncate, the crawl again", cut)
	}
	if _, err := exec.LookPath("truncate"); err != nil {
		t.Skip("no truncate here")
	}
	dir = t.TempDir()
	killMidway(t, chapterCommand(t, dir, cut[0]), filepath.Join(dir, "pages.jsonl"), 2000)
	if c := chapterCommand(t, dir, cut[1]); c.exit(t) != 0 {
		t.Fatalf("%s: %s", cut[1], c.stderr.String())
	}
	again = chapterCommand(t, dir, cut[2])
	if code := again.exit(t); code != 0 {
		t.Fatalf("run again after the cut: exit %d; stderr %s", code, again.stderr.String())
	}
	checkExactSet(t, filepath.Join(dir, "pages.jsonl"), demoExpected(t, filepath.Join(dir, "crawl-state"), n))
	var shapes []*regexp.Regexp
	for _, line := range text[0] {
		shapes = append(shapes, regexp.MustCompile("^"+regexp.MustCompile(`\d+`).ReplaceAllString(regexp.QuoteMeta(line), `\d+`)+"$"))
	}
	resumed := false
	for _, line := range strings.Split(again.stderr.String(), "\n") {
		if !strings.Contains(line, " cut ") && !strings.Contains(line, "resuming") {
			continue
		}
		if !slices.ContainsFunc(shapes, func(re *regexp.Regexp) bool { return re.MatchString(line) }) {
			t.Errorf("the notice %q is not one of the chapter's", line)
		}
		resumed = resumed || strings.Contains(line, "resuming")
	}
	if !resumed {
		t.Errorf("no resuming notice; stderr %s", again.stderr.String())
	}
}

// commandsOf is a shell block's commands: its lines but comments.
func commandsOf(block []string) []string {
	var out []string
	for _, l := range block {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
