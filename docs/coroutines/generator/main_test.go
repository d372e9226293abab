package main

import (
	"os"
	"strings"
	"testing"
)

// The interleaving is the lesson, so it is pinned line for line, and
// docs/coroutines.md must quote it exactly.
func TestMainAndTheGeneratorTakeTurns(t *testing.T) {
	var out strings.Builder
	run(&out)
	want := `main: next()
  countdown: yielding 3
main: got 3
main: next()
  countdown: resumed
  countdown: yielding 2
main: got 2
  countdown: told to stop
main: done
`
	if out.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out.String(), want)
	}
	chapter, err := os.ReadFile("../../coroutines.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(chapter), "$ go run ./docs/coroutines/generator\n"+want) {
		t.Error("docs/coroutines.md does not quote this output exactly, after \"$ go run ./docs/coroutines/generator\"")
	}
}
