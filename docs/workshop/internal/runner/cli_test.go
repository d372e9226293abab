package runner

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// fakeTester reports the exercises in solved as passing, the rest as
// failing one test of three. It records which exercises it ran.
type fakeTester struct {
	solved   map[string]bool
	verified []string
	ran      []string
	noRace   bool
}

func (f *fakeTester) Results(_ context.Context, exs []Exercise) (map[string]*Result, error) {
	res := make(map[string]*Result)
	for _, e := range exs {
		f.ran = append(f.ran, e.Name)
		if f.solved[e.Name] {
			res[e.Package()] = &Result{Ran: true, Passed: true, Tests: 3}
		} else {
			res[e.Package()] = &Result{Ran: true, Tests: 3, Failed: []string{"TestX"}}
		}
	}
	return res, nil
}

func (f *fakeTester) RaceDetector() bool { return !f.noRace }

func (f *fakeTester) Verify(_ context.Context, e Exercise, w io.Writer) (bool, error) {
	f.verified = append(f.verified, e.Name)
	fmt.Fprintln(w, "(test output)")
	return f.solved[e.Name], nil
}

// files is a workshop whose READMEs and hints are one-liners.
func files() fstest.MapFS {
	fsys := fstest.MapFS{}
	for i, e := range Exercises {
		fsys[e.Name+"/README.md"] = &fstest.MapFile{Data: []byte(fmt.Sprintf(
			"# %d. %s — title of %s\n\nSummary of %s, with a [link](x.go).\n\n## The rules\n\nwhat the rules say\n", i+1, e.Name, e.Name, e.Name))}
		hints := "## Hint 1\none\n## Hint 2\ntwo\n## Hint 3\nthree\n"
		if e.Name == "chunked" {
			hints += "\n## Common wrong answers\n\n- the usual one\n"
		}
		fsys["hints/"+e.Name+".md"] = &fstest.MapFile{Data: []byte(hints)}
	}
	fsys["solutions/timeout/wrong/b-second.diff"] = &fstest.MapFile{Data: []byte(
		"Wrong: the second mistake,\nover two lines.\nRule: 1\nCaught by: TestB\n\n--- a/exercise.go\n+++ b/exercise.go\n")}
	fsys["solutions/timeout/wrong/a-first.diff"] = &fstest.MapFile{Data: []byte(
		"Wrong: the first mistake.\nRule: 2\nRace: yes\nCaught by: TestA\n\n--- a/exercise.go\n+++ b/exercise.go\n")}
	return fsys
}

func run(t *testing.T, solved map[string]bool, args ...string) (string, int, *fakeTester) {
	t.Helper()
	var out bytes.Buffer
	ft := &fakeTester{solved: solved}
	app := &App{Files: files(), Tester: ft, Out: &out}
	status := app.Run(context.Background(), args)
	return out.String(), status, ft
}

func mustContain(t *testing.T, out string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(out, p) {
			t.Errorf("output lacks %q:\n%s", p, out)
		}
	}
}

func TestListShowsProgressAndWhatIsNext(t *testing.T) {
	out, status, _ := run(t, map[string]bool{"readyqueue": true, "timerheap": true, "minifuture": true}, "list")
	if status != 0 {
		t.Errorf("list exited %d", status)
	}
	mustContain(t, out,
		"3 of 20 exercises solved",
		"  ✓  1. readyqueue  title of readyqueue\n",
		"  ✓  2. timerheap   title of timerheap\n",
		"  ✗  3. echo        title of echo (1 of 3 tests fail)\n",
		"  ✓  5. minifuture  title of minifuture\n",
		"  ✗ 20. wakeup      title of wakeup (1 of 3 tests fail)\n",
		"Next: echo — go run ./docs/workshop next")
}

func TestNoArgumentsIsList(t *testing.T) {
	out, status, _ := run(t, nil)
	if status != 0 || !strings.Contains(out, "0 of 20 exercises solved") {
		t.Errorf("no arguments: status %d, output\n%s", status, out)
	}
}

func TestAllSolved(t *testing.T) {
	all := map[string]bool{}
	for _, e := range Exercises {
		all[e.Name] = true
	}
	out, _, _ := run(t, all, "list")
	mustContain(t, out, "20 of 20 exercises solved", "All solved.")
	out, _, _ = run(t, all, "next")
	mustContain(t, out, "Every exercise is solved.")
}

func TestNextIntroducesTheFirstUnsolved(t *testing.T) {
	out, status, ft := run(t, map[string]bool{"readyqueue": true, "timerheap": true, "minifuture": true}, "next")
	if status != 0 {
		t.Errorf("next exited %d", status)
	}
	// It stops at the first that fails: what comes after is not run.
	if want := []string{"readyqueue", "timerheap", "echo"}; !slices.Equal(ft.ran, want) {
		t.Errorf("next ran the tests of %v; want %v, in that order, and nothing after the first unsolved", ft.ran, want)
	}
	mustContain(t, out, "  ✓  2. timerheap\n")
	mustContain(t, out,
		"Next: 3. echo — title of echo (1 of 3 tests fail)",
		"Summary of echo, with a link.",
		"docs/workshop/echo/exercise.go",
		"go run ./docs/workshop verify echo",
		"go run ./docs/workshop hint echo 1")
	if strings.Contains(out, "what the rules say") {
		t.Errorf("next printed more than the summary:\n%s", out)
	}
}

func TestHintsComeOneAtATime(t *testing.T) {
	out, status, _ := run(t, nil, "hint", "timeout")
	if status != 0 || !strings.Contains(out, "timeout — hint 1 of 3\n\none\n") || strings.Contains(out, "two") {
		t.Errorf("hint timeout: status %d, output\n%s", status, out)
	}
	mustContain(t, out, "go run ./docs/workshop hint timeout 2")
	out, _, _ = run(t, nil, "hint", "7", "2") // by number
	if !strings.Contains(out, "timeout — hint 2 of 3\n\ntwo\n") || strings.Contains(out, "one") || strings.Contains(out, "three") {
		t.Errorf("hint 7 2: output\n%s", out)
	}
	out, _, _ = run(t, nil, "hint", "timeout", "3")
	mustContain(t, out, "three", "That was the last hint", "docs/workshop/solutions/timeout/exercise.go")
	for _, bad := range [][]string{{"hint", "timeout", "4"}, {"hint", "timeout", "0"}, {"hint", "timeout", "x"}, {"hint", "nosuch"}} {
		if out, status, _ := run(t, nil, bad...); status == 0 || !strings.HasPrefix(strings.TrimSpace(out), "workshop:") {
			t.Errorf("%q: status %d, output\n%s", bad, status, out)
		}
	}
}

func TestCommonWrongAnswers(t *testing.T) {
	out, status, _ := run(t, nil, "hint", "chunked", "wrong")
	if status != 0 || !strings.Contains(out, "chunked — common wrong answers\n\n- the usual one\n") {
		t.Errorf("hint chunked wrong: status %d, output\n%s", status, out)
	}
	out, _, _ = run(t, nil, "hint", "chunked", "3")
	mustContain(t, out, "go run ./docs/workshop hint chunked wrong")
	out, _, _ = run(t, nil, "verify", "chunked")
	mustContain(t, out, "The usual mistakes: go run ./docs/workshop hint chunked wrong")
	// Known wrong answers, in their files' order, each with its test,
	// where the hints list none.
	out, status, _ = run(t, nil, "hint", "timeout", "wrong")
	mustContain(t, out, "timeout — 2 known wrong answers, and the test that catches each\n\n"+
		"- a-first: the first mistake.\n  Caught by TestA.\n"+
		"- b-second: the second mistake, over two lines.\n  Caught by TestB.\n")
	if status != 0 || strings.Contains(out, "common wrong answers") {
		t.Errorf("hint timeout wrong: status %d, output\n%s", status, out)
	}
	out, _, _ = run(t, nil, "hint", "timeout", "3")
	mustContain(t, out, "go run ./docs/workshop hint timeout wrong")
	if out, status, _ := run(t, nil, "hint", "countdown", "wrong"); status == 0 || !strings.Contains(out, "knows no common wrong answers") {
		t.Errorf("hint countdown wrong, which has none: status %d, output\n%s", status, out)
	}
	if out, _, _ := run(t, nil, "hint", "countdown", "3"); strings.Contains(out, "wrong") {
		t.Errorf("the last hint of an exercise without wrong answers points to them:\n%s", out)
	}
}

// On the real files: every exercise's wrong answers are all listed, and
// each names its test.
func TestHintWrongListsEveryKnownWrongAnswer(t *testing.T) {
	var out bytes.Buffer
	app := &App{Files: os.DirFS(workshop), Tester: &fakeTester{}, Out: &out}
	for _, e := range Exercises {
		out.Reset()
		diffs, _ := filepath.Glob(filepath.Join(workshop, "solutions", e.Name, "wrong", "*.diff"))
		if status := app.Run(context.Background(), []string{"hint", e.Name, "wrong"}); status != 0 {
			t.Errorf("hint %s wrong: status %d:\n%s", e.Name, status, out.String())
			continue
		}
		if !strings.Contains(out.String(), fmt.Sprintf("%s — %d known wrong answers", e.Name, len(diffs))) {
			t.Errorf("hint %s wrong does not list its %d known wrong answers:\n%s", e.Name, len(diffs), out.String())
		}
		for _, d := range diffs {
			if !strings.Contains(out.String(), "- "+strings.TrimSuffix(filepath.Base(d), ".diff")+": ") {
				t.Errorf("hint %s wrong leaves out %s", e.Name, filepath.Base(d))
			}
		}
	}
}

func TestVerifySaysSolvedOrNot(t *testing.T) {
	out, status, ft := run(t, map[string]bool{"echo": true}, "verify", "echo")
	if status != 0 || len(ft.verified) != 1 || ft.verified[0] != "echo" {
		t.Errorf("verify echo: status %d, verified %v", status, ft.verified)
	}
	mustContain(t, out, "(test output)", "✓ echo is solved", "with the race detector")
	out, status, _ = run(t, nil, "verify", "chunked")
	if status != 1 {
		t.Errorf("verify of an unsolved exercise exited %d, want 1", status)
	}
	mustContain(t, out, "✗ chunked is not solved yet", "go run ./docs/workshop hint chunked 1")
	if strings.Contains(out, "race") {
		t.Errorf("chunked has no goroutines, yet verify mentions the race detector:\n%s", out)
	}
}

// Without cgo there is no race detector: verify must not claim it ran.
func TestVerifyWithoutTheRaceDetector(t *testing.T) {
	var out bytes.Buffer
	app := &App{Files: files(), Tester: &fakeTester{solved: map[string]bool{"echo": true}, noRace: true}, Out: &out}
	if status := app.Run(context.Background(), []string{"verify", "echo"}); status != 0 {
		t.Errorf("verify echo exited %d", status)
	}
	if !strings.Contains(out.String(), "✓ echo is solved") || strings.Contains(out.String(), "race") {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestUsage(t *testing.T) {
	for _, bad := range [][]string{{"frobnicate"}, {"verify"}, {"list", "extra"}, {"hint"}} {
		out, status, _ := run(t, nil, bad...)
		if status != 2 || !strings.Contains(out, "go run ./docs/workshop list") {
			t.Errorf("%q: status %d, want 2 and the usage", bad, status)
		}
	}
	if out, status, _ := run(t, nil, "help"); status != 0 || !strings.Contains(out, "hint NAME [N]") {
		t.Errorf("help: status %d, output\n%s", status, out)
	}
	if _, status, _ := run(t, nil, "verify", "nosuch"); status != 2 {
		t.Errorf("verify nosuch exited %d, want 2", status)
	}
}
