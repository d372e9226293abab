package runner

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
	if len(Exercises) != 12 {
		t.Errorf("%d exercises; the workshop, its README and Usage say twelve", len(Exercises))
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
		if hints, err := ParseHints(read(t, "hints/"+e.Name+".md")); err != nil || len(hints) != 3 {
			t.Errorf("hints/%s.md: %d hints, %v; want 3", e.Name, len(hints), err)
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
