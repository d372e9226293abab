package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loopkit/internal/wirelog"
)

// --timeline draws the crawl at --loops 1 and 2: a lane per loop above
// the rest, a lane per host with its ramp-up labelled, and every request
// the crawl made: a bar per request the server saw, robots.txt among
// them, in lanes that are the connections the server accepted.
func TestTimelineDrawsTheLoopsAndEveryRequest(t *testing.T) {
	defer time.AfterFunc(time.Minute, func() { panic("hung: a crawl of two small hosts did not end in a minute") }).Stop()
	for _, loops := range []int{1, 2} {
		t.Run(fmt.Sprintf("loops=%d", loops), func(t *testing.T) {
			srv := wirelog.New(t)
			a, b := srv.Host("a", wirelog.Fan(6, nil)), srv.Host("b", wirelog.Fan(6, nil))
			svg := filepath.Join(t.TempDir(), "crawl.svg")
			var stdout, stderr bytes.Buffer
			if code := run([]string{"--timeline", svg, "--loops", fmt.Sprint(loops), a, b}, &stdout, &stderr, nil); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			raw, err := os.ReadFile(svg)
			if err != nil {
				t.Fatal(err)
			}
			s := string(raw)
			arrived := len(srv.Arrivals("a", "b"))
			if bars := strings.Count(s, `class="bar"`); bars != arrived {
				t.Fatalf("%d bars for %d requests the servers saw", bars, arrived)
			}
			if strings.Count(s, `data-kind="robots"`) != 2 {
				t.Fatal("robots.txt is not drawn as such, once per host")
			}
			if lanes, conns := strings.Count(s, `class="lane"`), srv.Conns("a")+srv.Conns("b"); lanes != conns {
				t.Fatalf("%d lanes for %d connections the servers accepted", lanes, conns)
			}
			for i := range loops {
				if !strings.Contains(s, fmt.Sprintf(`<g class="looplane" data-loop="loop %d">`, i)) {
					t.Fatalf("no lane for loop %d", i)
				}
			}
			if strings.Count(s, `class="looplane"`) != loops || !strings.Contains(s, `class="busy"`) || !strings.Contains(s, `class="wake io"`) {
				t.Fatalf("want %d loop lanes, with busy time and wake-ups by I/O", loops)
			}
			if strings.Count(s, `class="hostlane"`) != 2 || !strings.Contains(s, `class="rise"`) {
				t.Fatal("want a lane per host, its ramp-up labelled")
			}
			if !strings.Contains(stderr.String(), fmt.Sprintf("timeline of %d requests and %s drawn in", arrived, plural(loops, "loop"))) {
				t.Fatalf("stderr: %s", stderr.String())
			}
		})
	}
}
