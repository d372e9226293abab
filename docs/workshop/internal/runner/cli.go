package runner

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
)

// App is the runner's commands over its files, its Tester and its output.
type App struct {
	Files  fs.FS     // NAME/README.md, hints/NAME.md and solutions/NAME/wrong/*.diff for each exercise
	Tester Tester    // runs the tests
	Out    io.Writer // where everything is printed
	Dir    string    // the workshop's directory on disk; only watch needs it
}

// Usage is the runner's help.
const Usage = `The loopkit workshop: twenty exercises, each a hole cut in code you have read.

  go run ./docs/workshop list              progress: ✓ solved, ✗ not yet (runs every test)
  go run ./docs/workshop next              the first exercise not solved yet, and how to start
  go run ./docs/workshop hint NAME [N]     hint N (1, 2 or 3) of an exercise, one at a time
  go run ./docs/workshop hint NAME wrong   the known wrong answers, and the test that catches each
  go run ./docs/workshop verify NAME       run an exercise's tests, with their output
  go run ./docs/workshop watch [NAME]      verify again each time you save (Ctrl-C stops)

NAME is an exercise's name or its number. Edit docs/workshop/NAME/exercise.go only.
`

// Run runs one command and returns the process's exit status: 0 done, 1
// an exercise not solved (verify) or a failure, 2 bad usage.
func (a *App) Run(ctx context.Context, args []string) int {
	cmd, rest := "list", args
	if len(args) > 0 {
		cmd, rest = args[0], args[1:]
	}
	var err error
	status := 0
	switch {
	case cmd == "list" && len(rest) == 0:
		err = a.list(ctx)
	case cmd == "next" && len(rest) == 0:
		err = a.next(ctx)
	case cmd == "hint" && (len(rest) == 1 || len(rest) == 2):
		err = a.hint(rest)
	case cmd == "verify" && len(rest) == 1:
		status, err = a.verify(ctx, rest[0])
	case cmd == "watch" && len(rest) <= 1:
		err = a.watch(ctx, rest)
	case cmd == "help" || cmd == "-h" || cmd == "-help" || cmd == "--help":
		fmt.Fprint(a.Out, Usage)
	default:
		fmt.Fprint(a.Out, Usage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(a.Out, "workshop: %v\n", err)
		return max(status, 1)
	}
	return status
}

// readme reads and parses an exercise's README.md.
func (a *App) readme(e Exercise) (Readme, error) {
	b, err := fs.ReadFile(a.Files, e.Name+"/README.md")
	if err != nil {
		return Readme{}, err
	}
	r, err := ParseReadme(string(b))
	if err != nil {
		return Readme{}, fmt.Errorf("%s/README.md: %w", e.Name, err)
	}
	return r, nil
}

// progress runs every exercise's tests.
func (a *App) progress(ctx context.Context) (map[string]*Result, error) {
	fmt.Fprintln(a.Out, "Running the tests of every exercise against your code...")
	return a.Tester.Results(ctx, Exercises)
}

// resultOf is the result for e, or an empty one if go test said nothing.
func resultOf(results map[string]*Result, e Exercise) Result {
	if r := results[e.Package()]; r != nil {
		return *r
	}
	return Result{}
}

// FirstUnsolved is the first exercise, in the workshop's order, whose
// tests do not pass; false if all do.
func FirstUnsolved(results map[string]*Result) (Exercise, int, bool) {
	for i, e := range Exercises {
		if !resultOf(results, e).Passed {
			return e, i + 1, true
		}
	}
	return Exercise{}, 0, false
}

func (a *App) list(ctx context.Context) error {
	results, err := a.progress(ctx)
	if err != nil {
		return err
	}
	var titles []string
	for _, e := range Exercises {
		r, err := a.readme(e)
		if err != nil {
			return err
		}
		titles = append(titles, r.Title)
	}
	fmt.Fprint(a.Out, FormatList(results, titles))
	return nil
}

// FormatList is the list command's table: a line per exercise, with its
// mark, number, name, title and, if unsolved, why; then what to do next.
func FormatList(results map[string]*Result, titles []string) string {
	var b strings.Builder
	width, solved := 0, 0
	for _, e := range Exercises {
		width = max(width, len(e.Name))
		if resultOf(results, e).Passed {
			solved++
		}
	}
	fmt.Fprintf(&b, "\n%d of %d exercises solved\n\n", solved, len(Exercises))
	for i, e := range Exercises {
		r := resultOf(results, e)
		line := fmt.Sprintf("  %s %2d. %-*s  %s", r.Status(), i+1, width, e.Name, titles[i])
		if why := r.Why(); why != "" {
			line += " (" + why + ")"
		}
		b.WriteString(line + "\n")
	}
	if e, _, ok := FirstUnsolved(results); ok {
		fmt.Fprintf(&b, "\nNext: %s — go run ./docs/workshop next\n", e.Name)
	} else {
		b.WriteString("\nAll solved. Compare yours with docs/workshop/solutions/, and read the real code each was cut from.\n")
	}
	return b.String()
}

// next runs the exercises' tests one exercise at a time, in order, and
// stops at the first that fails: the ones after it are not run at all.
// (go test's cache makes the solved ones quick.)
func (a *App) next(ctx context.Context) error {
	fmt.Fprintln(a.Out, "Running each exercise's tests in order, up to the first not solved...")
	for i, e := range Exercises {
		results, err := a.Tester.Results(ctx, []Exercise{e})
		if err != nil {
			return err
		}
		res := resultOf(results, e)
		if !res.Passed {
			r, err := a.readme(e)
			if err != nil {
				return err
			}
			fmt.Fprint(a.Out, FormatNext(e, r, res))
			return nil
		}
		fmt.Fprintf(a.Out, "  ✓ %2d. %s\n", i+1, e.Name)
	}
	fmt.Fprintln(a.Out, "\nEvery exercise is solved. Compare yours with docs/workshop/solutions/, and read the real code each was cut from.")
	return nil
}

// FormatNext introduces an exercise: its title, its summary, where to
// read, what to edit, how to check, where the hints are.
func FormatNext(e Exercise, r Readme, res Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nNext: %d. %s — %s", r.Number, e.Name, r.Title)
	if why := res.Why(); why != "" {
		fmt.Fprintf(&b, " (%s)", why)
	}
	fmt.Fprintf(&b, "\n\n%s\n\n", Plain(r.Summary))
	fmt.Fprintf(&b, "  The rules:  docs/workshop/%s/README.md\n", e.Name)
	fmt.Fprintf(&b, "  Edit:       docs/workshop/%s/exercise.go\n", e.Name)
	fmt.Fprintf(&b, "  Check:      go run ./docs/workshop verify %s\n", e.Name)
	fmt.Fprintf(&b, "  Stuck?      go run ./docs/workshop hint %s 1\n", e.Name)
	return b.String()
}

// hintFile reads hints/NAME.md: its hints, and its common wrong answers
// ("" if it lists none).
func (a *App) hintFile(e Exercise) ([]string, string, error) {
	b, err := fs.ReadFile(a.Files, "hints/"+e.Name+".md")
	if err != nil {
		return nil, "", err
	}
	hints, err := ParseHints(string(b))
	if err != nil {
		return nil, "", fmt.Errorf("hints/%s.md: %w", e.Name, err)
	}
	return hints, ParseWrongAnswers(string(b)), nil
}

func (a *App) hint(args []string) error {
	e, _, err := Lookup(args[0])
	if err != nil {
		return err
	}
	hints, wrong, err := a.hintFile(e)
	if err != nil {
		return err
	}
	if len(args) == 2 && args[1] == "wrong" {
		known, err := a.knownWrong(e)
		if err != nil {
			return err
		}
		if wrong == "" && len(known) == 0 {
			return fmt.Errorf("%s knows no common wrong answers; its hints are 1 to %d", e.Name, len(hints))
		}
		fmt.Fprint(a.Out, FormatWrong(e, wrong, known))
		return nil
	}
	n := 1
	if len(args) == 2 {
		if n, err = strconv.Atoi(args[1]); err != nil {
			return fmt.Errorf("hint %s %s: the hint's number is 1, 2 or 3", args[0], args[1])
		}
	}
	known, err := a.knownWrong(e)
	if err != nil {
		return err
	}
	text, err := FormatHint(e, hints, n, wrong != "" || len(known) > 0)
	if err != nil {
		return err
	}
	fmt.Fprint(a.Out, text)
	return nil
}

// FormatHint shows hint n alone, and says how to get the next one; after
// the last, where the solution is, and the common wrong answers if the
// exercise lists some.
func FormatHint(e Exercise, hints []string, n int, wrong bool) (string, error) {
	if n < 1 || n > len(hints) {
		return "", fmt.Errorf("%s has hints 1 to %d", e.Name, len(hints))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s — hint %d of %d\n\n%s\n\n", e.Name, n, len(hints), Plain(hints[n-1]))
	if n < len(hints) {
		fmt.Fprintf(&b, "Still stuck? go run ./docs/workshop hint %s %d\n", e.Name, n+1)
	} else {
		if wrong {
			fmt.Fprintf(&b, "Passing some tests but not all? The usual mistakes: go run ./docs/workshop hint %s wrong\n", e.Name)
		}
		fmt.Fprintf(&b, "That was the last hint. The reference solution is docs/workshop/solutions/%s/exercise.go:\nread it once yours passes, or when you have given up for today.\n", e.Name)
	}
	return b.String(), nil
}

func (a *App) verify(ctx context.Context, name string) (int, error) {
	e, _, err := Lookup(name)
	if err != nil {
		return 2, err
	}
	ok, err := a.Tester.Verify(ctx, e, a.Out)
	if err != nil {
		return 1, err
	}
	fmt.Fprint(a.Out, FormatVerdict(e, ok, e.Race && a.Tester.RaceDetector()))
	if !ok {
		_, wrong, err := a.hintFile(e)
		known, kerr := a.knownWrong(e)
		if err == nil && kerr == nil && (wrong != "" || len(known) > 0) {
			fmt.Fprintf(a.Out, "  The usual mistakes: go run ./docs/workshop hint %s wrong\n", e.Name)
		}
		return 1, nil
	}
	return 0, nil
}

// FormatVerdict is what verify says after the tests' own output; race
// says whether they ran under the race detector.
func FormatVerdict(e Exercise, ok, race bool) string {
	raced := ""
	if race {
		raced = ", with the race detector"
	}
	if ok {
		return fmt.Sprintf("\n✓ %s is solved: every test passes%s.\n  Next: go run ./docs/workshop next\n", e.Name, raced)
	}
	return fmt.Sprintf("\n✗ %s is not solved yet: the failures above say what is still wrong%s.\n  Stuck? go run ./docs/workshop hint %s 1\n", e.Name, raced, e.Name)
}
