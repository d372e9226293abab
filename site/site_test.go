package site

import (
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Close releases every waiting handler, closes every connection and leaves no goroutine.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	s, err := Start(Config{Pages: 50}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	c := &http.Client{Transport: tr, Timeout: 30 * time.Second}

	// Requests that would outlive the site, each from its own goroutine.
	var wg sync.WaitGroup
	for _, p := range []string{"hang", "delay?ms=60000", "dribble?n=100&every=1s"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp, err := c.Get(s.URL() + p); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	waitFor(t, "three requests in flight", func() bool { return s.Stats().InFlight == 3 })
	// And quick ones, leaving an idle keep-alive connection behind.
	for _, p := range []string{"", "drop?id=z", "reset-mid-body"} {
		if resp, err := c.Get(s.URL() + p); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}

	start := time.Now()
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Close took %v", took)
	}
	wg.Wait() // the clients saw their connections end
	tr.CloseIdleConnections()
	if st := s.Stats(); st.OpenConns != 0 || st.InFlight != 0 {
		t.Errorf("after Close: %d connections open, %d requests in flight", st.OpenConns, st.InFlight)
	}
	if err := s.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}

	// Goroutines end a little after their connections; allow a moment and a little slack.
	waitFor(t, "the goroutines to end", func() bool { return runtime.NumGoroutine() <= before+2 })
}

// The site listens on loopback addresses only, unless Config.Public says otherwise.
func TestLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:8080", "example.invalid:80"} {
		if s, err := Start(Config{}, addr); err == nil {
			s.Close()
			t.Errorf("Start on %s: no error", addr)
		} else if !strings.Contains(err.Error(), "loopback") {
			t.Errorf("Start on %s: %v, want a word about loopback", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "127.0.0.2:0", "[::1]:0", "localhost:0"} {
		if err := checkAddr(addr, false); err != nil {
			t.Errorf("checkAddr(%s): %v", addr, err)
		}
	}
	if err := checkAddr("0.0.0.0:8080", true); err != nil {
		t.Errorf("checkAddr with public: %v", err)
	}
	s, err := Start(Config{Pages: 10}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") || !strings.HasSuffix(s.URL(), "/") {
		t.Errorf("URL() = %s, want http://127.0.0.1:PORT/", s.URL())
	}
}

// A Config out of range is an error on one line.
func TestBadConfig(t *testing.T) {
	for _, cfg := range []Config{{Pages: -1}, {FanOut: -2}, {Depth: maxDepth + 1}, {Pages: maxPages + 1}, {CrawlDelay: -time.Second},
		{Pages: 2_000_000}, {Pages: 10_000_000, Hosts: 9}} {
		_, err := Start(cfg, "")
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: error %v, want one line", cfg, err)
		}
	}
}

// A site of ten million pages is a million a host or less: it is built, and its
// pages render, without keeping a string a book.
func TestTenMillionPagesOverTenHosts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a catalogue of ten million books")
	}
	cfg, err := Config{Pages: 10_000_000, Hosts: 10}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	c := newCatalogue(cfg)
	last := c.books()
	if last < 9_000_000 {
		t.Fatalf("%d books", last)
	}
	page := string(c.appendBook(nil, last, &origins{self: c.bookHost(last)}))
	if !strings.Contains(page, "<h1>"+titleOf(c.slug(last))+"</h1>") {
		t.Errorf("book %d's page lacks its title:\n%s", last, page)
	}
	if id, ok := c.parseBook(c.bookPath(last)); !ok || id != last {
		t.Errorf("parseBook(%s) = %d, %v", c.bookPath(last), id, ok)
	}
}

// Connections are counted as the server sees them: keep-alive reuses one; when the
// client closes it, it is no longer open.
func TestConnectionCounts(t *testing.T) {
	s := startSite(t, Config{Pages: 10})
	c := newClient(t)
	for range 5 {
		get(t, c, s.URL())
	}
	if st := s.Stats(); st.Conns != 1 || st.OpenConns != 1 || st.Requests != 5 || st.Paths["/"] != 5 {
		t.Errorf("5 requests over keep-alive: %+v", st)
	}
	c.Transport.(*http.Transport).CloseIdleConnections()
	waitFor(t, "the connection to close", func() bool { return s.Stats().OpenConns == 0 })
}

// /stats and /reset are not counted; pages accept GET and HEAD only.
func TestInstrumentsAndMethods(t *testing.T) {
	s := startSite(t, Config{Pages: 10, CrawlDelay: 1500 * time.Millisecond})
	c := newClient(t)
	for range 3 {
		stats(t, c, s)
	}
	get(t, c, s.URL()+"reset")
	if st := stats(t, c, s); st.Requests != 0 {
		t.Errorf("reading /stats and /reset counted %d requests", st.Requests)
	}
	if resp, err := c.Head(s.URL()); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD /: %v %v", resp, err)
	}
	for path, allow := range map[string]string{"": "GET, HEAD", "reset": "GET, POST", "stats": "GET, HEAD"} {
		req, _ := http.NewRequest(http.MethodPut, s.URL()+path, nil)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != allow {
			t.Errorf("PUT /%s: %s, Allow %q; want 405, %q", path, resp.Status, resp.Header.Get("Allow"), allow)
		}
	}
	_, robots := get(t, c, s.URL()+"robots.txt")
	for _, line := range []string{"User-agent: *\nDisallow: /private/\n", "Crawl-delay: 1.5\n", "User-agent: BadBot\nDisallow: /\n"} {
		if !strings.Contains(string(robots), line) {
			t.Errorf("robots.txt lacks %q:\n%s", line, robots)
		}
	}
}

// Links inside comments, scripts and non-HTML files point at traps, which the server
// counts; a normal fetch of every page leaves the count at zero.
func TestTrapsAreCounted(t *testing.T) {
	s := startSite(t, Config{Pages: 50})
	c := newClient(t)
	for _, u := range s.Expected(false) {
		get(t, c, u)
	}
	if st := s.Stats(); st.TrapHits != 0 {
		t.Fatalf("fetching Expected hit %d traps", st.TrapHits)
	}
	for _, p := range []string{"trap/comment.html", "trap/script.html", "extras/based.html", "search?q=poetry&amp;page=2"} {
		if resp, _ := get(t, c, s.URL()+p); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET /%s: %s, want 404", p, resp.Status)
		}
	}
	if st := s.Stats(); st.TrapHits != 4 {
		t.Errorf("4 trap requests counted as %d", st.TrapHits)
	}
}
