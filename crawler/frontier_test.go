package crawler_test

import (
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"

	"loopkit/crawler"
	"loopkit/internal/wirelog"
)

// A robots.txt that cannot be read is not a silent "disallow all": the
// host's URLs are recorded as failures, with the reason, and nothing else
// is requested from it.
func TestRobotsFailureIsRecorded(t *testing.T) {
	t.Parallel() // its own servers and files; it mostly waits
	refused := wirelog.ClosedPort(t)
	srv := wirelog.New(t)
	unavailable := srv.Host("503", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		wirelog.Page(w)
	}))
	toHTTPS := srv.Host("to-https", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "https://"+r.Host+"/robots.txt", http.StatusMovedPermanently)
			return
		}
		wirelog.Page(w)
	}))
	for _, tc := range []struct{ name, root, reason string }{
		{"5xx after every try", unavailable, "robots.txt: status 503 (after 2 tries)"},
		{"https root", "https://" + refused + "/", "connection refused"},
		{"connection refused", "http://" + refused + "/", "connection refused"},
		{"redirect to https on a port that speaks http", toHTTPS, "does not look like a TLS handshake"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := crawl(t, crawler.Config{Roots: []string{tc.root}, MaxTries: 2})
			recs := c.Records()
			if len(recs) != 1 || recs[0].Status != nil || recs[0].ErrorKind != "robots" ||
				!strings.Contains(*recs[0].Exception, tc.reason) {
				t.Fatalf("records %+v, want the root failed with %q", recs, tc.reason)
			}
			if !strings.HasPrefix(*recs[0].Exception, "robots.txt: ") {
				t.Errorf("exception %q does not say robots.txt", *recs[0].Exception)
			}
		})
	}
	for _, host := range []string{"503", "to-https"} {
		for _, p := range srv.Paths(host) {
			if p != "/robots.txt" {
				t.Errorf("%s requested from %s, whose robots.txt could not be read", p, host)
			}
		}
	}
}

// robots.txt is read to 512 KiB whatever --max_body says, and a longer
// one is cut there, not refused: its rules still hold.
func TestLongRobotsTxtIsObeyed(t *testing.T) {
	srv := wirelog.New(t)
	robotsTxt := "User-agent: *\nDisallow: /private\n" + strings.Repeat("# padding\n", 70_000) // 700 KB
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, robotsTxt) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { wirelog.Page(w, "/private", "/public") })
	base := srv.Host("h", mux)
	c, recs := crawl(t, crawler.Config{Roots: []string{base}, HTTP: httpLimit(4 << 10)})
	if status(recs["/public"]) != 200 || srv.Count("h", "/private") != 0 {
		t.Fatalf("recorded %v; /private requested %d times", paths(recs), srv.Count("h", "/private"))
	}
	if d := c.Disallowed(); len(d) != 1 || !strings.HasSuffix(d[0], "/private") {
		t.Fatalf("disallowed %v", d)
	}
}

// The crawler reads all of the 500 KiB RFC 9309 §2.5 has parsers read:
// a rule just before then holds; one past 512 KiB, never read, does not.
func TestRobotsTxtIsReadTo500KiB(t *testing.T) {
	srv := wirelog.New(t)
	head := "User-agent: *\n" + strings.Repeat("# padding\n", 51_150) // 499.5 KiB
	robotsTxt := head + "Disallow: /early\n" + strings.Repeat("# padding\n", 2_500) + "Disallow: /late\n"
	if len(robotsTxt)-len("Disallow: /late\n") < 512<<10 || len(head)+len("Disallow: /early\n") > 500<<10 {
		t.Fatalf("rules at %d and %d bytes", len(head), len(robotsTxt))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, robotsTxt) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { wirelog.Page(w, "/early", "/late") })
	base := srv.Host("h", mux)
	_, recs := crawl(t, crawler.Config{Roots: []string{base}})
	if srv.Count("h", "/early") != 0 || srv.Count("h", "/late") != 1 {
		t.Fatalf("recorded %v; /early requested %d times, /late %d", paths(recs), srv.Count("h", "/early"), srv.Count("h", "/late"))
	}
}

// Credentials, an empty userinfo, a fragment and a dot segment are
// spellings of one URL: it is fetched once, and no record holds a password.
func TestOneURLManySpellings(t *testing.T) {
	srv := wirelog.New(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) { wirelog.Page(w) })
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		hostport := r.Host
		wirelog.Page(w, "http://u:secret@"+hostport+"/x", "http://@"+hostport+"/x", "/x#top", "/./x", "\\x", "/x")
	})
	base := srv.Host("h", mux)
	c, recs := crawl(t, crawler.Config{Roots: []string{base}})
	if n := srv.Count("h", "/x"); n != 1 || len(recs) != 2 {
		t.Fatalf("/x requested %d times; recorded %v", n, paths(recs))
	}
	if root := recs["/"]; root.NumURLs != 1 || root.NumNewURLs != 1 {
		t.Fatalf("root: %d links, %d new; want its six spellings to be one link", root.NumURLs, root.NumNewURLs)
	}
	for _, r := range c.Records() {
		if strings.Contains(r.URL, "secret") {
			t.Fatalf("a record holds the password: %s", r.URL)
		}
	}
}

// The trap limits: an endless calendar stops at --max_query_variants, a
// monstrous URL is never requested, and --max_pages_per_host caps a host.
func TestTrapLimits(t *testing.T) {
	srv := wirelog.New(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/calendar", func(w http.ResponseWriter, r *http.Request) {
		var month int
		fmt.Sscan(r.URL.Query().Get("m"), &month)
		wirelog.Page(w, fmt.Sprintf("/calendar?m=%d", month+1))
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		wirelog.Page(w, "/calendar?m=0", "/long?q="+strings.Repeat("a", 3000))
	})
	base := srv.Host("h", mux)
	var notices []string
	c, _ := crawl(t, crawler.Config{Roots: []string{base}, MaxQueryVariants: 20,
		OnNotice: func(m string) { notices = append(notices, m) }})
	if n := len(srv.Arrivals("h")); n != 22 { // robots.txt, the root, 20 months
		t.Fatalf("%d requests, want 22; the longest path is %d bytes", n, longest(srv.Paths("h")))
	}
	s := c.Stats()
	if s.Filtered["query_variants"] != 1 || s.Filtered["url_length"] != 1 {
		t.Fatalf("filtered %v", s.Filtered)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "MaxQueryVariants") {
		t.Fatalf("notices %q", notices)
	}

	fan := srv.Host("fan", wirelog.Fan(20, nil))
	c, recs := crawl(t, crawler.Config{Roots: []string{fan}, MaxPagesPerHost: 5})
	if len(recs) != 5 || c.Stats().Filtered["max_pages_per_host"] != 16 {
		t.Fatalf("recorded %d pages, filtered %v", len(recs), c.Stats().Filtered)
	}
	// The root's links all passed the filters; the cap let four in.
	if r := recs["/"]; r.NumURLs != 20 || r.NumNewURLs != 4 {
		t.Fatalf("the root's num_urls %d, num_new_urls %d; want 20 and 4", r.NumURLs, r.NumNewURLs)
	}
}

func longest(paths []string) int {
	n := 0
	for _, p := range paths {
		n = max(n, len(p))
	}
	return n
}

// A server that resets every connection gets exactly --max_tries
// requests for a URL: a retry the HTTP client makes on a fresh connection
// counts as a try.
func TestResetEveryTimeGetsMaxTriesRequests(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		conn.(*net.TCPConn).SetLinger(0) // close with a reset
		conn.Close()
	}))
	c, _ := crawl(t, crawler.Config{Roots: []string{base}, MaxTries: 4})
	if n := srv.Count("h", "/"); n != 4 {
		t.Fatalf("the server got %d requests for /, want --max_tries 4", n)
	}
	if r := c.Records()[0]; r.Tries != 4 || r.ErrorKind != "reset" {
		t.Fatalf("recorded %d tries, kind %q", r.Tries, r.ErrorKind)
	}
}

// MaxQueryVariants counts a path's queries on its own host: another
// host's queries of the same path are its own.
func TestQueryVariantsAreCountedPerHost(t *testing.T) {
	other, _ := newSite(t, map[string]http.HandlerFunc{"/": html("/q?i=3"), "/q": html()})
	srv, _ := newSite(t, map[string]http.HandlerFunc{"/": html("/q?i=1", "/q?i=2", other.URL+"/"), "/q": html()})
	c, _ := crawl(t, crawler.Config{Roots: []string{srv.URL, other.URL}, NoRobots: true, MaxQueryVariants: 2})
	var got []string
	for _, r := range c.Records() {
		got = append(got, r.URL)
	}
	if !slices.Contains(got, other.URL+"/q?i=3") || c.Stats().Filtered["query_variants"] != 0 {
		t.Fatalf("recorded %v, filtered %v", got, c.Stats().Filtered)
	}
}
