package main

import (
	"strings"
	"testing"
	"time"
)

// The two bodies take turns in a fixed order: each sleeps as long as the
// other, and a's timer is always set first, so it is always due first
// (equal deadlines fire in the order they were set).
func TestTwoToyTasksTakeTurns(t *testing.T) {
	defer time.AfterFunc(time.Minute, func() { panic("hung: the toy tasks never finished") }).Stop()
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	want := []string{
		"a: step 1, then sleep 10ms", "b: step 1, then sleep 10ms",
		"a: step 2, then sleep 10ms", "b: step 2, then sleep 10ms",
		"a: step 3, then sleep 10ms", "b: step 3, then sleep 10ms",
		"a: done", "b: done",
	}
	if len(lines) < len(want) || strings.Join(lines[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "on one goroutine") {
		t.Fatalf("no summary:\n%s", out.String())
	}
}
