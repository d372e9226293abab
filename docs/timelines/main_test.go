package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The program draws both pictures: five lanes with the semaphore (each
// connection reused), one per request without it.
func TestBothTimelines(t *testing.T) {
	guard := time.AfterFunc(time.Minute, func() { panic("timelines hung") })
	defer guard.Stop()
	dir := t.TempDir()
	var out bytes.Buffer
	if err := run(&out, dir, 12, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for name, lanes := range map[string]int{"semaphore-5": 5, "unbounded": 12} {
		svg, err := os.ReadFile(filepath.Join(dir, name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(svg), `class="lane"`); n != lanes {
			t.Errorf("%s: %d lanes, want %d", name, n, lanes)
		}
		if n := strings.Count(string(svg), `class="bar"`); n != 12 {
			t.Errorf("%s: %d bars, want 12", name, n)
		}
	}
	if !strings.Contains(out.String(), "at most 5 at once") || !strings.Contains(out.String(), "at most 12 at once") {
		t.Fatalf("output %q", out.String())
	}
}
