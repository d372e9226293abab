package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// Result is how an exercise's tests went against the learner's code.
type Result struct {
	Ran         bool     // go test reported on the package at all
	Passed      bool     // every test passed
	BuildFailed bool     // exercise.go (or its tests) does not compile
	Tests       int      // top-level tests that ran
	Failed      []string // top-level tests that failed
}

// Status is the one-word mark for the list.
func (r Result) Status() string {
	if r.Passed {
		return "✓"
	}
	return "✗"
}

// Why says in a few words why an exercise is not solved.
func (r Result) Why() string {
	switch {
	case r.Passed:
		return ""
	case r.BuildFailed:
		return "does not build"
	case !r.Ran:
		return "tests did not run"
	case len(r.Failed) > 0:
		return fmt.Sprintf("%d of %d tests fail", len(r.Failed), r.Tests)
	}
	return "fails" // a crash or a timeout outside any test
}

// event is one line of `go test -json` (cmd/test2json's TestEvent).
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	FailedBuild string
}

// ParseTestJSON reads the output of `go test -json` for several packages
// and returns a Result per package import path. Lines that are not JSON
// (go's own messages, which it prints when a build fails) are skipped.
func ParseTestJSON(r io.Reader) (map[string]*Result, error) {
	results := make(map[string]*Result)
	get := func(pkg string) *Result {
		if results[pkg] == nil {
			results[pkg] = &Result{}
		}
		return results[pkg]
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("{")) {
			continue
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Package == "" {
			continue
		}
		res := get(e.Package)
		topLevel := e.Test != "" && !strings.Contains(e.Test, "/")
		switch {
		case e.Test == "" && e.Action == "pass":
			res.Ran, res.Passed = true, true
		case e.Test == "" && e.Action == "fail":
			res.Ran = true
			// go 1.24 and later name the failed build; earlier ones say
			// so in the package's last output line.
			res.BuildFailed = res.BuildFailed || e.FailedBuild != ""
		case e.Test == "" && e.Action == "output" && strings.Contains(e.Output, "[build failed]"):
			res.BuildFailed = true
		case topLevel && e.Action == "pass":
			res.Tests++
		case topLevel && e.Action == "fail":
			res.Tests++
			res.Failed = append(res.Failed, e.Test)
		}
	}
	return results, sc.Err()
}

// Tester runs exercises' tests. The runner's commands take one, so that
// their tests can use a fake.
type Tester interface {
	// Results runs the tests of every exercise given, quietly.
	Results(ctx context.Context, exs []Exercise) (map[string]*Result, error)
	// Verify runs one exercise's tests with their output on w, and
	// reports whether they passed.
	Verify(ctx context.Context, ex Exercise, w io.Writer) (bool, error)
	// RaceDetector reports whether the exercises marked Race run under
	// the race detector.
	RaceDetector() bool
}

// GoTester runs the tests with the go command.
type GoTester struct {
	// NoRace: the race detector is not available (it needs cgo, and go
	// turns cgo off where it finds no C compiler), so nothing runs with it.
	NoRace bool
}

// RaceDetector reports whether the race detector is used.
func (g GoTester) RaceDetector() bool { return !g.NoRace }

// args is the go test command line for exs; go test's cache makes a
// second run of unchanged code instant.
func args(race bool, json bool, exs []Exercise) []string {
	a := []string{"test", "-tags", "workshop", "-timeout", "120s"}
	if race {
		a = append(a, "-race")
	}
	if json {
		a = append(a, "-json")
	}
	for _, e := range exs {
		a = append(a, e.Package())
	}
	return a
}

// Results runs the exercises with and without the race detector as two go
// commands at once, and merges what they report.
func (g GoTester) Results(ctx context.Context, exs []Exercise) (map[string]*Result, error) {
	var plain, racy []Exercise
	for _, e := range exs {
		if e.Race && !g.NoRace {
			racy = append(racy, e)
		} else {
			plain = append(plain, e)
		}
	}
	type outcome struct {
		res map[string]*Result
		err error
	}
	run := func(race bool, exs []Exercise, out chan<- outcome) {
		if len(exs) == 0 {
			out <- outcome{}
			return
		}
		var stdout bytes.Buffer
		cmd := exec.CommandContext(ctx, "go", args(race, true, exs)...)
		cmd.Stdout = &stdout
		err := cmd.Run() // a non-zero status only means a test failed
		res, perr := ParseTestJSON(&stdout)
		if len(res) == 0 && err != nil {
			perr = fmt.Errorf("go %s: %w", strings.Join(cmd.Args[1:], " "), err)
		}
		out <- outcome{res, perr}
	}
	a, b := make(chan outcome, 1), make(chan outcome, 1)
	go run(false, plain, a)
	go run(true, racy, b)
	merged := make(map[string]*Result)
	for _, ch := range []chan outcome{a, b} {
		o := <-ch
		if o.err != nil {
			return nil, o.err
		}
		for k, v := range o.res {
			merged[k] = v
		}
	}
	return merged, nil
}

// Verify runs go test for one exercise, its output on w.
func (g GoTester) Verify(ctx context.Context, ex Exercise, w io.Writer) (bool, error) {
	cmd := exec.CommandContext(ctx, "go", args(ex.Race && !g.NoRace, false, []Exercise{ex})...)
	cmd.Stdout, cmd.Stderr = w, w
	fmt.Fprintf(w, "$ go %s\n", strings.Join(cmd.Args[1:], " "))
	err := cmd.Run()
	if _, failed := err.(*exec.ExitError); failed {
		return false, nil
	}
	return err == nil, err
}
