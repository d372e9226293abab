package main

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"loopkit/internal/wirelog"
)

// -v says a line on stderr per recorded URL — a page with its status,
// type, size, links and tries; a redirect with its target; a URL that
// got no answer with its error — and one per URL robots.txt forbids.
// Without -v, none of these is said.
func TestVerboseSaysALinePerURL(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		case "/":
			wirelog.Page(w, "/a", "/moved", "/private", "/gone", "/") // 5 links, 4 new
		case "/moved":
			http.Redirect(w, r, "/a", http.StatusMovedPermanently)
		case "/gone":
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close() // no answer at all
			}
		default:
			wirelog.Page(w)
		}
	}))
	args := []string{"--max_tries", "1", base + "/"}
	var stdout, stderr bytes.Buffer
	run(append([]string{"-v"}, args...), &stdout, &stderr, nil)
	said := stderr.String()
	for _, re := range []string{
		`(?m)^` + base + `/ 200 text/html \d+ bytes, 4/5 new links, 1 tries, \d+\.\d ms$`,
		`(?m)^` + base + `/a 200 text/html \d+ bytes, 0/0 new links, 1 tries, \d+\.\d ms$`,
		`(?m)^` + base + `/moved 301 → ` + base + `/a$`,
		`(?m)^` + base + `/gone error \S.*$`,
		`(?m)^` + base + `/private disallowed by robots.txt$`,
	} {
		if !regexp.MustCompile(re).MatchString(said) {
			t.Errorf("-v: stderr lacks %s:\n%s", re, said)
		}
	}
	stdout.Reset()
	stderr.Reset()
	run(args, &stdout, &stderr, nil)
	if strings.Contains(stderr.String(), base+"/a ") || strings.Contains(stderr.String(), "disallowed") {
		t.Errorf("without -v:\n%s", stderr.String())
	}
}
