package main

import (
	"bytes"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"loopkit/internal/redistest"
	"loopkit/internal/wirelog"
)

// A --redis crawl prints the fleet's counts after its own report: the
// tallies sorted by name (here ok, http_error, redirect and
// filtered:max_pages_per_host), this process's counts, and the Redis
// commands per page fetched here. A process joining the crawl once it is
// over, with no ROOT, takes the fleet's roots rather than starting the
// demo site, writes its own -o, fetches nothing, says no word per page,
// and exits 0: the crawl was the fleet's.
func TestAFleetCrawlReportsTheFleetsCounts(t *testing.T) {
	rds := redistest.Start(t, redistest.Options{})
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(4, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/p0":
			http.NotFound(w, r)
		case "/p1":
			http.Redirect(w, r, "/p2", http.StatusFound)
		default:
			wirelog.Page(w)
		}
	}))
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-q", "-o", filepath.Join(dir, "first.jsonl"), "--redis", rds.URL(), "--crawl_id", "report", "--max_pages_per_host", "4", base}, &stdout, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	report := stdout.String()
	i := strings.Index(report, "\n*** Fleet ***\n")
	if i < 0 || !strings.Contains(report[:i], "*** Report ***") {
		t.Fatalf("no Fleet section after the report:\n%s", report)
	}
	fleetPart := report[i+len("\n*** Fleet ***\n"):]
	lines := strings.Split(strings.TrimRight(fleetPart, "\n"), "\n")
	tally := regexp.MustCompile(`^( *\d+) (\S+)$`)
	var names []string
	for _, l := range lines {
		if m := tally.FindStringSubmatch(l); m != nil && len(m[1]) == 10 {
			names = append(names, m[2])
		}
	}
	if len(names) < 4 || !slices.IsSorted(names) || len(names) != len(lines)-2 {
		t.Errorf("the fleet's tallies are not sorted lines of a count and a name:\n%s", fleetPart)
	}
	if !regexp.MustCompile(`(?m)^This process: \d+ taken, \d+ settled, \d+ links found \(\d+ new to the fleet, \d+ over a host's share\), \d+ leases taken, \d+ lost, \d+ given back, \d+ pages done here but settled elsewhere$`).MatchString(fleetPart) {
		t.Errorf("no line of this process's counts:\n%s", fleetPart)
	}
	if !regexp.MustCompile(`(?m)^Redis: [1-9]\d* commands sent, [1-9]\d* of them steps, \d+\.\d\d per page fetched here$`).MatchString(fleetPart) {
		t.Errorf("no Redis line with the commands per page:\n%s", fleetPart)
	}

	fetched := len(srv.Arrivals("h"))
	stdout.Reset()
	stderr.Reset()
	code := run([]string{"-o", filepath.Join(dir, "late.jsonl"), "--redis", rds.URL(), "--crawl_id", "report", "--max_pages_per_host", "4"}, &stdout, &stderr, nil)
	if code != 0 {
		t.Fatalf("a late joiner with no ROOT: exit %d, want 0: %s", code, stderr.String())
	}
	if strings.Contains(stderr.String(), "demo site") {
		t.Errorf("a --redis joiner with no ROOT started the demo site: %s", stderr.String())
	}
	if n := len(srv.Arrivals("h")); n != fetched {
		t.Errorf("the late joiner fetched %d more", n-fetched)
	}
	if !regexp.MustCompile(`(?m)^Redis: \d+ commands sent, \d+ of them steps$`).MatchString(stdout.String()) {
		t.Errorf("with no page fetched here, the Redis line should give no rate per page:\n%s", stdout.String())
	}
}
