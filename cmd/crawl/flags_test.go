package main

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"loopkit/internal/wirelog"
)

// A flag's 0 that means "none" or "no limit" reaches the crawler as that,
// not as crawler.Config's zero, which means its default: --max_redirect 0
// follows no redirect, not ten. Seen failing with each of the six
// translations dropped in turn.
func TestZeroFlagsMeanNoneNotTheDefault(t *testing.T) {
	o, _, err := parseFlags([]string{"--max_redirect", "0", "--max_query_variants", "0", "--report_urls", "0",
		"--queue_memory", "0", "--seen_memory", "0", "--parse_workers", "0", "example.invalid"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	c := o.cfg
	for name, got := range map[string]int{"max_redirect": c.MaxRedirect, "max_query_variants": c.MaxQueryVariants,
		"report_urls": c.ReportURLs, "queue_memory": c.QueueMemory, "seen_memory": c.SeenMemory, "parse_workers": c.ParseWorkers} {
		if got >= 0 {
			t.Errorf("--%s 0 gave the crawler %d; want a negative number: none, not its default", name, got)
		}
	}
}

// --lenient widens the scope unless --strict is given too; --strict
// alone, or neither, keeps it strict.
func TestLenientUnlessStrictIsGivenToo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--lenient"}, true},
		{[]string{"--strict"}, false},
		{[]string{"--lenient", "--strict"}, false},
		{[]string{"--lenient", "--strict=false"}, true},
	} {
		o, _, err := parseFlags(append(tc.args, "example.invalid"), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if o.cfg.Lenient != tc.want {
			t.Errorf("%v: lenient %v, want %v", tc.args, o.cfg.Lenient, tc.want)
		}
	}
}

// From the other side of the wire: with --max_redirect 0 the root's
// redirect is recorded and its target never asked for.
func TestMaxRedirectZeroFollowsNone(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/from":
			http.Redirect(w, r, "/to", http.StatusMovedPermanently)
		default:
			wirelog.Page(w)
		}
	}))
	var stdout, stderr bytes.Buffer
	code := run([]string{"-q", "--max_redirect", "0", base + "/from"}, &stdout, &stderr, nil)
	var paths []string
	for _, a := range srv.Arrivals("h") {
		paths = append(paths, a.Path)
	}
	if strings.Join(paths, " ") != "/robots.txt /from" {
		t.Fatalf("the server was asked for %v; want robots.txt and /from only (exit %d, stderr %s)", paths, code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "redirect limit") {
		t.Fatalf("the report does not say the redirect was not followed:\n%s", stdout.String())
	}
}
