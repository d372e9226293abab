package runner

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// A known wrong answer is a diff of the reference solution, in
// solutions/NAME/wrong/, headed by what is wrong with it and the test that
// catches it (check.sh proves it does):
//
//	Wrong: what is wrong, and why it matters (one or more lines)
//	Rule: 2, 3
//	Caught by: TestX
//
// `hint NAME wrong` shows the headers, not the diffs: a learner whose
// answer fails one test reads which mistakes fail it, and why.

// KnownWrong is the header of one known wrong answer.
type KnownWrong struct {
	File   string // the diff's name, without .diff: a name for the mistake
	What   string // the "Wrong:" paragraph, on one line
	Caught string // the test that catches it
}

// ParseKnownWrong reads a known wrong answer's header.
func ParseKnownWrong(name, diff string) (KnownWrong, error) {
	header, _, _ := strings.Cut(diff, "\n--- ")
	k := KnownWrong{File: strings.TrimSuffix(name, ".diff")}
	var what []string
	inWhat := false
	for _, line := range strings.Split(header, "\n") {
		switch {
		case strings.HasPrefix(line, "Wrong: "):
			inWhat = true
			what = append(what, strings.TrimPrefix(line, "Wrong: "))
		case strings.HasPrefix(line, "Caught by: "):
			k.Caught = strings.TrimSpace(strings.TrimPrefix(line, "Caught by: "))
			inWhat = false
		case strings.HasPrefix(line, "Rule: ") || strings.HasPrefix(line, "Race: ") || strings.TrimSpace(line) == "":
			inWhat = false
		case inWhat:
			what = append(what, strings.TrimSpace(line))
		}
	}
	k.What = strings.Join(what, " ")
	if k.What == "" || k.Caught == "" {
		return k, fmt.Errorf("%s: a known wrong answer starts with \"Wrong: \" and names its test in \"Caught by: \"", name)
	}
	return k, nil
}

// knownWrong reads an exercise's known wrong answers, in the order of
// their files' names.
func (a *App) knownWrong(e Exercise) ([]KnownWrong, error) {
	names, err := fs.Glob(a.Files, "solutions/"+e.Name+"/wrong/*.diff")
	if err != nil {
		return nil, err
	}
	var out []KnownWrong
	for _, n := range names {
		b, err := fs.ReadFile(a.Files, n)
		if err != nil {
			return nil, err
		}
		k, err := ParseKnownWrong(path.Base(n), string(b))
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// FormatWrong is what `hint NAME wrong` shows: the hints' common wrong
// answers, in their words, then every known wrong answer and the test
// that catches it.
func FormatWrong(e Exercise, common string, known []KnownWrong) string {
	var b strings.Builder
	if common != "" {
		fmt.Fprintf(&b, "\n%s — common wrong answers\n\n%s\n", e.Name, Plain(common))
	}
	if len(known) > 0 {
		fmt.Fprintf(&b, "\n%s — %d known wrong answers, and the test that catches each\n\n", e.Name, len(known))
		for _, k := range known {
			fmt.Fprintf(&b, "- %s: %s\n  Caught by %s.\n", k.File, Plain(k.What), k.Caught)
		}
		fmt.Fprintf(&b, "\nEach is a diff of the reference solution: docs/workshop/solutions/%s/wrong/\n", e.Name)
	}
	return b.String()
}
