package main

import (
	"strings"
	"testing"
	"time"

	"loopkit/docs/stages/internal/stagetest"
)

// The program prints timings; the test checks only that every way handled
// every request (speed is for the reader to see, not for a test to bet on).
func TestEveryWayHandlesEveryRequest(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 4, 5*time.Millisecond); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := strings.Count(out.String(), "4 of 4 requests ok"); got != len(ways) {
		t.Errorf("%d of %d ways handled every request:\n%s", got, len(ways), out.String())
	}
}
