// Command mutants asks of the tests what an outside reviewer asks: if this
// line of the code were wrong, would a test fail? Each mutant in list.go
// changes one line (or a few, for one change) of the reactor, the HTTP
// client, the frontier, the Redis client, the parsers or the crawl's
// journal so that it behaves wrongly; the runner applies it and runs that area's tests. A
// mutant the tests kill is a behaviour they guard; one that survives is
// a blind spot — unless the change makes no difference anyone could see
// (an equivalent mutant), which list.go then says.
//
// Run it from anywhere in the module:
//
//	go run ./internal/mutants              # every mutant, a line each, then the score
//	go run ./internal/mutants -run http1/  # those whose id matches a regexp
//	go run ./internal/mutants -round 2     # those of one round (list.go)
//	go run ./internal/mutants -v           # and the tail of each survivor's test output
//	go run ./internal/mutants -list        # the mutants, without running anything
//	go run ./internal/mutants -own         # each against its own package's tests only
//
// It never edits a file: each mutant is handed to go test through
// -overlay, which compiles a replacement file in the original's place, so
// a run that is interrupted leaves the tree as it was. It takes about a
// quarter of a minute per mutant on two cores (a build and a package's
// tests), which is why it is not part of CI.
//
// A mutant whose original text is no longer in its file is reported as
// stale, not run: the code has changed under it, and the list needs a
// look. One that does not compile is reported as invalid. Neither counts
// in the score.
//
// internal/mutants sits beside the library: a tool for whoever reviews
// the tests, importing nothing of loopkit.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// mutant is one deliberate bug: in file, the text old (which must occur
// exactly once) becomes new.
type mutant struct {
	round    int    // see list.go
	id       string // area/what, e.g. "loop/timer-cancel-after-fire"
	file     string // relative to the module root
	old, new string
	why      string // the behaviour it breaks, in a few words
	// equivalent, if set, says why no test can tell this mutant from the
	// code: it is run and shown, but not counted.
	equivalent string
}

// The test packages of each area: what a reviewer of that area runs.
var areas = map[string][]string{
	"reactor":  {"./netpoll", "./future", "./loop", "./task"},
	"client":   {"./crawler/http1"},
	"frontier": {"./crawler/frontier"},
	"resp":     {"./crawler/resp"},
	"urlnorm":  {"./crawler/urlnorm"},
	"robots":   {"./crawler/robots"},
	"links":    {"./crawler/links"},
	"journal":  {"./crawler/journal"},
	"fleet":    {"./crawler/fleet"},
	"crawler":  {"./crawler"},
	"command":  {"./cmd/crawl"},
	"site":     {"./site"},
}

// area is the area whose packages include m's; the reactor's if none does.
func (m mutant) area() string {
	for area, pkgs := range areas {
		if slices.Contains(pkgs, m.pkg()) {
			return area
		}
	}
	return "reactor"
}

// pkg is the package m is in, as go test names it: "./loop".
func (m mutant) pkg() string { return "./" + filepath.Dir(m.file) }

// notBehaviour names the tests that compare a chapter's quotations with
// the source: they fail on any change to the code a chapter quotes, and
// a mutant they alone catch is a bug no test of behaviour would see. The
// runner skips them.
const notBehaviour = "^TestChapterQuotesItsCode$"

type outcome string

const (
	killed   outcome = "killed"
	survived outcome = "SURVIVED"
	invalid  outcome = "invalid" // did not compile
	stale    outcome = "stale"   // its original text is gone

	equivalent outcome = "equiv" // survived, and listed as equivalent
)

func main() {
	run := flag.String("run", "", "run only the mutants whose id matches this `regexp`")
	round := flag.Int("round", 0, "run only the mutants of this round (0: all)")
	verbose := flag.Bool("v", false, "print the end of the test output of each survivor")
	list := flag.Bool("list", false, "list the mutants and exit")
	timeout := flag.Duration("timeout", 3*time.Minute, "go test's -timeout for each mutant")
	own := flag.Bool("own", false, "run each mutant against its own package's tests only, not its whole area's")
	flag.Parse()
	if err := mainErr(*run, *round, *verbose, *list, *own, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(1)
	}
}

func mainErr(pattern string, round int, verbose, listOnly, own bool, timeout time.Duration) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "mutants")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	score := map[string][2]int{}    // area: killed, counted
	pkgScore := map[string][2]int{} // package: killed, counted
	var pkgs []string               // in the order they first came
	for i, m := range mutants {
		if !re.MatchString(m.id) || round != 0 && m.round != round {
			continue
		}
		if listOnly {
			mark := ""
			if src, err := os.ReadFile(filepath.Join(root, m.file)); err != nil || bytes.Count(src, []byte(m.old)) != 1 {
				mark = " (" + string(stale) + ")"
			}
			fmt.Printf("%d %-40s %-32s %s%s\n", m.round, m.id, m.file, m.why, mark)
			continue
		}
		start := time.Now()
		out, firstFail, output := apply(root, tmp, i, m, own, timeout)
		note := firstFail
		if m.equivalent != "" {
			// Listed as equivalent: shown, never counted. One that is
			// killed after all was not equivalent, and the list is wrong.
			note = "listed as equivalent: " + m.equivalent
			if out == survived {
				out = equivalent
			}
		} else if out == killed || out == survived {
			for key, sc := range map[string]map[string][2]int{m.area(): score, m.pkg(): pkgScore} {
				s := sc[key]
				s[1]++
				if out == killed {
					s[0]++
				}
				sc[key] = s
			}
			if !slices.Contains(pkgs, m.pkg()) {
				pkgs = append(pkgs, m.pkg())
			}
		}
		fmt.Printf("%-8s %-40s %5.1fs  %s\n", out, m.id, time.Since(start).Seconds(), note)
		if verbose && out == survived {
			fmt.Println(indent(tail(output, 15)))
		}
	}
	if listOnly {
		return nil
	}
	for _, area := range []string{"reactor", "client", "frontier", "resp", "urlnorm", "robots", "links", "journal", "fleet", "crawler", "command", "site"} {
		if s, ok := score[area]; ok && s[1] > 0 {
			fmt.Printf("%s: %d of %d killed (%.0f %%)\n", area, s[0], s[1], 100*float64(s[0])/float64(s[1]))
		}
	}
	for _, p := range pkgs {
		s := pkgScore[p]
		fmt.Printf("  %s: %d of %d killed (%.0f %%)\n", p, s[0], s[1], 100*float64(s[0])/float64(s[1]))
	}
	return nil
}

// apply runs the tests of m's area (or, with own, of its package) with m
// in place, and says how it went: the outcome, the first test that
// failed, and the test output.
func apply(root, tmp string, i int, m mutant, own bool, timeout time.Duration) (outcome, string, string) {
	path := filepath.Join(root, m.file)
	src, err := os.ReadFile(path)
	if err != nil || bytes.Count(src, []byte(m.old)) != 1 {
		return stale, fmt.Sprintf("the original text is not in %s exactly once", m.file), ""
	}
	mutated := filepath.Join(tmp, fmt.Sprintf("m%d_%s", i, filepath.Base(m.file)))
	overlay := filepath.Join(tmp, fmt.Sprintf("m%d.json", i))
	if err := os.WriteFile(mutated, bytes.Replace(src, []byte(m.old), []byte(m.new), 1), 0o644); err != nil {
		return invalid, err.Error(), ""
	}
	spec, _ := json.Marshal(map[string]map[string]string{"Replace": {path: mutated}})
	if err := os.WriteFile(overlay, spec, 0o644); err != nil {
		return invalid, err.Error(), ""
	}
	pkgs := areas[m.area()]
	if own {
		pkgs = []string{m.pkg()}
	}
	// -tags e2e: a mutant is judged by every test CI runs, the slow
	// end-to-end ones a learner's first go test skips included.
	args := append([]string{"test", "-count=1", "-tags=e2e", "-overlay=" + overlay, "-timeout=" + timeout.String(), "-skip=" + notBehaviour}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	output, err := cmd.CombinedOutput()
	text := string(output)
	switch {
	case err == nil:
		return survived, "", text
	case strings.Contains(text, "[build failed]") || strings.Contains(text, "[setup failed]"):
		return invalid, firstLine(text), text
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return invalid, err.Error(), text
	}
	if f := regexp.MustCompile(`--- FAIL: (\S+)`).FindStringSubmatch(text); f != nil {
		return killed, f[1], text
	}
	if strings.Contains(text, "panic:") {
		return killed, "a panic", text
	}
	return killed, firstLine(text), text
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func indent(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
