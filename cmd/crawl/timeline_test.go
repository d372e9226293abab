package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loopkit/internal/wirelog"
)

// --timeline draws every request the crawl made: a bar per request the
// server saw, robots.txt among them, in lanes that are the connections.
func TestTimelineDrawsEveryRequest(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(6, nil))
	svg := filepath.Join(t.TempDir(), "crawl.svg")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--timeline", svg, base}, &stdout, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if bars, arrived := strings.Count(s, `class="bar"`), len(srv.Arrivals("h")); bars != arrived {
		t.Fatalf("%d bars for %d requests the server saw", bars, arrived)
	}
	if strings.Count(s, `data-kind="robots"`) != 1 {
		t.Fatal("robots.txt is not drawn as such")
	}
	if lanes, conns := strings.Count(s, `class="lane"`), srv.Conns("h"); lanes != conns {
		t.Fatalf("%d lanes for %d connections the server accepted", lanes, conns)
	}
	if !strings.Contains(stderr.String(), "timeline of 8 requests drawn in") {
		t.Fatalf("stderr: %s", stderr.String())
	}
}
