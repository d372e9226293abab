package crawler

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/loop"
)

// What a trace viewer is told of a crawl on two loops: each attempt names
// the loop that made it — the one that owns its server — and each page
// parsed off the loop is reported once, by the worker that parsed it,
// with its size and a start before its end.
func TestAttemptsNameTheirLoopAndWorkersTheirPages(t *testing.T) {
	const hosts, loops, workers = 6, 2, 2
	padding := strings.Repeat("x", 5000)
	var roots []string
	bodies := map[string]int{} // page URL → body bytes
	for range hosts {
		srv := httptest.NewUnstartedServer(nil)
		base := "http://" + srv.Listener.Addr().String()
		for _, p := range []string{"/", "/a"} {
			bodies[base+p] = len(fmt.Sprintf(`<a href="/a">a</a>%s`, padding))
		}
		srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/" && r.URL.Path != "/a" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<a href="/a">a</a>%s`, padding)
		})
		srv.Start()
		t.Cleanup(srv.Close)
		roots = append(roots, base+"/")
	}
	var attempts []*Attempt // OnAttempt is serialized by the Group
	var mu sync.Mutex       // OnParse is not: workers call it at once
	var parses []ParseEvent
	cfg := Config{Roots: roots, NoRobots: true, MaxTasks: 8, ParseWorkers: workers, ParseInlineBelow: 1,
		OnAttempt: func(a *Attempt) { attempts = append(attempts, a) },
		OnParse: func(p ParseEvent) {
			mu.Lock()
			defer mu.Unlock()
			parses = append(parses, p)
		}}
	lg, err := loop.NewGroup(loops, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lg.Close()
	g, err := NewGroup(lg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer time.AfterFunc(time.Minute, func() { panic("the crawl hung for a minute") }).Stop()
	if err := g.Crawl(); err != nil {
		t.Fatal(err)
	}
	if len(attempts) != 2*hosts {
		t.Fatalf("%d attempts, want %d", len(attempts), 2*hosts)
	}
	for _, a := range attempts {
		u, _ := url.Parse(a.URL)
		if owner := ownerOf(u, loops); a.Loop != owner {
			t.Errorf("%s: attempt says loop %d, its server is loop %d's", a.URL, a.Loop, owner)
		}
	}
	seen := map[string]bool{}
	for _, p := range parses {
		switch {
		case seen[p.URL]:
			t.Errorf("%s parsed twice", p.URL)
		case bodies[p.URL] == 0:
			t.Errorf("parsed %s, which was not fetched", p.URL)
		case p.Bytes != bodies[p.URL]:
			t.Errorf("%s: %d bytes parsed, the body has %d", p.URL, p.Bytes, bodies[p.URL])
		case p.Worker < 0 || p.Worker >= workers:
			t.Errorf("%s: worker %d of %d", p.URL, p.Worker, workers)
		case p.Start.IsZero() || p.End.Before(p.Start):
			t.Errorf("%s: parsed from %v to %v", p.URL, p.Start, p.End)
		}
		seen[p.URL] = true
	}
	if len(seen) != len(bodies) {
		t.Fatalf("%d pages parsed off the loop, %d fetched", len(seen), len(bodies))
	}
}
