package main

import (
	"bytes"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"loopkit/internal/wirelog"
)

// A crawl in --state that goes on and gets no answer for any URL left is
// not a finished crawl with nothing to do: it fetched nothing, says so,
// and exits 1.
func TestResumedCrawlThatFetchesNothingFails(t *testing.T) {
	var broken atomic.Bool
	var once sync.Once
	interrupt := make(chan struct{})
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(5, func(w http.ResponseWriter, r *http.Request) {
		if broken.Load() {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close() // no answer at all
			}
			return
		}
		once.Do(func() { close(interrupt) }) // Ctrl-C with the first leaf in flight
		wirelog.Page(w)
	}))
	args := []string{"--state", filepath.Join(t.TempDir(), "state"), "--max_tasks", "1", "--per_host", "1", "--max_tries", "1", base + "/"}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr, interrupt); code != 130 {
		t.Fatalf("the first run: exit %d, want 130: %s", code, stderr.String())
	}
	if todo := reportCount(t, stdout.String(), "Todo"); todo == 0 {
		t.Fatalf("the first run left nothing to do:\n%s", stdout.String())
	}
	broken.Store(true)
	stdout.Reset()
	stderr.Reset()
	code := run(args, &stdout, &stderr, nil)
	if code != 1 || !strings.Contains(stderr.String(), "crawl: nothing was fetched\n") || strings.Contains(stderr.String(), "nothing was left to do") {
		t.Fatalf("the second run: exit %d, want 1 and 'nothing was fetched':\n%s", code, stderr.String())
	}
	if done := reportCount(t, stdout.String(), "Done"); done == 0 {
		t.Fatalf("the second run recorded nothing:\n%s", stdout.String())
	}
}
