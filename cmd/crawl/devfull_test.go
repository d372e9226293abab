package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"loopkit/internal/wirelog"
)

// An -o that has no room fails the crawl, exit 1, and the error is said
// in the command's words: -o, not the library's Config.Output.
func TestNoRoomForOutputIsSaidInFlags(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(3, nil))
	var stdout, stderr bytes.Buffer
	code := run([]string{"-q", "-o", "/dev/full", base + "/"}, &stdout, &stderr, nil)
	if code != 1 || !strings.Contains(stderr.String(), "crawl: -o: no room to write") || strings.Contains(stderr.String(), "Config.") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
}
