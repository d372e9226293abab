package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// These tests read the workshop on disk and check that it has the shape
// the runner and check.sh rely on, so that adding an exercise without its
// README, its hints or its solution fails here, not in front of a learner.

const workshop = "../.." // this test runs in docs/workshop/internal/runner

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(workshop, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEveryExerciseOnDiskIsListedInOrder(t *testing.T) {
	stubs, err := filepath.Glob(filepath.Join(workshop, "*", "exercise.go"))
	if err != nil {
		t.Fatal(err)
	}
	var onDisk, listed []string
	for _, s := range stubs {
		onDisk = append(onDisk, filepath.Base(filepath.Dir(s)))
	}
	for _, e := range Exercises {
		listed = append(listed, e.Name)
	}
	slices.Sort(onDisk)
	sorted := slices.Sorted(slices.Values(listed))
	if !slices.Equal(onDisk, sorted) {
		t.Fatalf("exercises on disk %v; listed in Exercises %v", onDisk, sorted)
	}
	if len(Exercises) != 20 {
		t.Errorf("%d exercises; the workshop's README and Usage say twenty", len(Exercises))
	}
	for _, text := range []string{Usage, read(t, "README.md")} {
		if !strings.Contains(strings.ToLower(text), "twenty exercises") {
			t.Errorf("this text does not say \"twenty exercises\":\n%.200s", text)
		}
	}
}

func TestEachExerciseHasItsFiles(t *testing.T) {
	for i, e := range Exercises {
		r, err := ParseReadme(read(t, e.Name+"/README.md"))
		if err != nil {
			t.Errorf("%s/README.md: %v", e.Name, err)
		} else if r.Number != i+1 || r.Name != e.Name {
			t.Errorf("%s/README.md is titled %d. %s; its place in Exercises is %d", e.Name, r.Number, r.Name, i+1)
		}
		if !strings.Contains(r.Summary, "Cut from") {
			t.Errorf("%s/README.md: the summary does not say what it is cut from", e.Name)
		}
		for _, section := range []string{"## The rules", "## Run it", "## What you learn"} {
			if !strings.Contains(read(t, e.Name+"/README.md"), "\n"+section+"\n") {
				t.Errorf("%s/README.md has no %q", e.Name, section)
			}
		}
		hintText := read(t, "hints/"+e.Name+".md")
		if hints, err := ParseHints(hintText); err != nil || len(hints) != 3 {
			t.Errorf("hints/%s.md: %d hints, %v; want 3", e.Name, len(hints), err)
		}
		// The parts of a split exercise are the long ones: their hints
		// end with the wrong answers people commonly give.
		if strings.Contains(r.Title, " part ") && ParseWrongAnswers(hintText) == "" {
			t.Errorf("hints/%s.md has no %q section: a part of a split exercise needs one", e.Name, WrongAnswersHeading)
		}
		if stub := read(t, e.Name+"/exercise.go"); strings.HasPrefix(stub, "//go:build") {
			t.Errorf("%s/exercise.go has a build constraint: the stub must build as it is", e.Name)
		}
		if sol := read(t, "solutions/"+e.Name+"/exercise.go"); !strings.HasPrefix(sol, "//go:build solution\n") {
			t.Errorf("solutions/%s/exercise.go does not start with //go:build solution", e.Name)
		}
		tests, _ := filepath.Glob(filepath.Join(workshop, e.Name, "*_test.go"))
		if len(tests) == 0 {
			t.Errorf("%s has no tests", e.Name)
		}
		for _, f := range tests {
			if b, _ := os.ReadFile(f); !strings.HasPrefix(string(b), "//go:build workshop\n") {
				t.Errorf("%s does not start with //go:build workshop: go test ./... would fail on the stubs", f)
			}
		}
	}
}

var linkTarget = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// The READMEs link to the real code each exercise is cut from, which may
// move: every relative link must reach a file.
func TestReadmeLinksReachFiles(t *testing.T) {
	for _, e := range Exercises {
		for _, m := range linkTarget.FindAllStringSubmatch(read(t, e.Name+"/README.md"), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if strings.Contains(target, "://") || target == "" {
				continue
			}
			if _, err := os.Stat(filepath.Join(workshop, e.Name, target)); err != nil {
				t.Errorf("%s/README.md links to %s: %v", e.Name, m[1], err)
			}
		}
	}
}

// A known answer is a diff of the reference solution with a header:
//
//	Wrong: what is wrong, and why it matters (one or more lines)
//	Rule: 2, 3        the README's rules it breaks (3a: a rule's sub-point)
//	Caught by: TestX  the test that fails (check.sh proves it does)
//
// or, for a right answer, "Right: ..." and "Rule: ...". This test checks
// the headers, and that every rule a README states is broken by at least
// one known wrong answer: so every rule has a test that fails without it.
func TestEveryRuleHasAKnownWrongAnswerAndATest(t *testing.T) {
	for _, e := range Exercises {
		rules := readmeRules(read(t, e.Name+"/README.md"))
		if len(rules) == 0 {
			t.Errorf("%s/README.md states no rules", e.Name)
		}
		tests := testNames(t, e.Name)
		broken := map[string]bool{}
		for _, kind := range []string{"wrong", "right"} {
			diffs, _ := filepath.Glob(filepath.Join(workshop, "solutions", e.Name, kind, "*.diff"))
			if kind == "wrong" && len(diffs) == 0 {
				t.Errorf("%s has no known wrong answers in solutions/%s/wrong/", e.Name, e.Name)
			}
			for _, d := range diffs {
				b, _ := os.ReadFile(d)
				header, _, _ := strings.Cut(string(b), "\n--- ")
				name := e.Name + "/" + kind + "/" + filepath.Base(d)
				first := "Wrong: "
				if kind == "right" {
					first = "Right: "
				}
				if !strings.HasPrefix(header, first) {
					t.Errorf("%s does not start with %q", name, first)
				}
				ruleLine := headerField(header, "Rule")
				if ruleLine == "" {
					t.Errorf("%s has no \"Rule:\" line", name)
				}
				for _, r := range strings.Split(ruleLine, ",") {
					r = strings.TrimSpace(r)
					if !slices.Contains(rules, r) {
						t.Errorf("%s names rule %q; %s/README.md has rules %v", name, r, e.Name, rules)
					}
					if kind == "wrong" {
						broken[r] = true
						if len(r) > 1 { // "3a" breaks rule 3 too
							broken[r[:1]] = true
						}
					}
				}
				caught := headerField(header, "Caught by")
				switch {
				case kind == "wrong" && !tests[caught]:
					t.Errorf("%s is caught by %q, which is not a test of %s", name, caught, e.Name)
				case kind == "right" && caught != "":
					t.Errorf("%s is a right answer: nothing should catch it", name)
				}
			}
		}
		for _, r := range rules {
			if !broken[r] {
				t.Errorf("%s/README.md's rule %s has no known wrong answer that breaks it (solutions/%s/wrong/)", e.Name, r, e.Name)
			}
		}
	}
}

// readmeRules numbers the bullets of a README's "## The rules": "1", "2",
// ...; a bullet's own sub-points are "3a", "3b".
func readmeRules(text string) []string {
	_, rest, _ := strings.Cut(text, "\n## The rules\n")
	rest, _, _ = strings.Cut(rest, "\n## ")
	var rules []string
	n, sub := 0, 0
	for _, line := range strings.Split(rest, "\n") {
		switch {
		case strings.HasPrefix(line, "- "):
			n++
			sub = 0
			rules = append(rules, fmt.Sprint(n))
		case strings.HasPrefix(line, "  - "):
			rules = append(rules, fmt.Sprintf("%d%c", n, 'a'+sub))
			sub++
		}
	}
	return rules
}

func headerField(header, name string) string {
	for _, line := range strings.Split(header, "\n") {
		if v, ok := strings.CutPrefix(line, name+": "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

var testFunc = regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\)`)

// testNames are the tests of an exercise.
func testNames(t *testing.T, name string) map[string]bool {
	files, _ := filepath.Glob(filepath.Join(workshop, name, "*_test.go"))
	out := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = true
		}
	}
	return out
}

// Each stage of the tutorial ends by naming the exercises that practise
// it: "**Now do exercises 8 to 12.** `queuejoin` is ...". Their numbers and
// names must be the runner's, every exercise named once, in order — so
// that the tutorial and `next` agree.
func TestTheTutorialNamesEveryExerciseInOrder(t *testing.T) {
	tutorial := read(t, "../tutorial.md")
	heading := regexp.MustCompile(`\*\*Now do exercises? (\d+)(?:(?: to |, | and )(\d+))*(?: and (\d+))?\.\*\*`)
	names := regexp.MustCompile("`([a-z]+)`")
	var named []string
	var numbers []int
	for _, para := range strings.Split(tutorial, "\n\n") {
		if !strings.HasPrefix(para, "**Now do exercise") {
			continue
		}
		m := heading.FindStringSubmatch(para)
		if m == nil {
			t.Errorf("the tutorial's paragraph does not start \"**Now do exercise(s) N ...**\":\n%s", para)
			continue
		}
		first, _ := strconv.Atoi(m[1])
		last := first
		for _, g := range m[2:] {
			if n, err := strconv.Atoi(g); err == nil {
				last = max(last, n)
			}
		}
		before := len(named)
		for _, nm := range names.FindAllStringSubmatch(para, -1) {
			if _, _, err := Lookup(nm[1]); err == nil {
				named = append(named, nm[1])
			}
		}
		for n := first; n <= last; n++ {
			numbers = append(numbers, n)
		}
		if len(named)-before != last-first+1 {
			t.Errorf("the tutorial's paragraph names %d exercises, and numbers %d to %d:\n%s", len(named)-before, first, last, para)
		}
	}
	var want []string
	var wantNumbers []int
	for i, e := range Exercises {
		want = append(want, e.Name)
		wantNumbers = append(wantNumbers, i+1)
	}
	if !slices.Equal(named, want) || !slices.Equal(numbers, wantNumbers) {
		t.Errorf("the tutorial names exercises %v, numbered %v; the runner's order is %v", named, numbers, want)
	}
}
