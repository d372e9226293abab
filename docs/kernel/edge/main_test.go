//go:build linux

package main

import (
	"os"
	"strings"
	"testing"
)

// The demonstration is deterministic (every wait has timeout 0, and the
// bytes are on the socket before it), so its whole output is pinned: and
// docs/kernel.md, which quotes it, must quote it exactly.
func TestLevelWakesUntilDrainedEdgeOncePerArrival(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"wait 2   woken, read 4, 2 left        not woken, 6 bytes unread\n",
		"wait 5   woken, read 1, 0 left        woken, read 4, 3 left\n",
		"level-triggered: woken 4 times, all read; edge-triggered: woken 2 times, 3 bytes never read.\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the output lacks %q:\n%s", want, got)
		}
	}
	chapter, err := os.ReadFile("../../kernel.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(chapter), "$ go run ./docs/kernel/edge\n"+got) {
		t.Errorf("docs/kernel.md does not quote this output exactly, after \"$ go run ./docs/kernel/edge\":\n%s", got)
	}
}
