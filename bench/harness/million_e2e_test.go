//go:build e2e

package harness

import (
	"context"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"loopkit/bench/report"
)

// The end-to-end runs of the million-page scenario: processes started,
// killed and started again, seconds each. They carry the e2e build tag,
// so that a learner's first go test ./... need not wait for them; CI
// runs them (.ci/run: go test -race -tags e2e ./...).

// A quick S7 through the whole machinery: the site over 20 hosts in a
// process of its own, its expected URLs from another, the real crawler
// in a third, killed with SIGKILL at half and run again in a fourth. It
// asserts what happened — the URL sets, the site's counts, the notices —
// never how fast or how big.
func TestAQuickMillionCrawlsKillsAndResumes(t *testing.T) {
	var progress strings.Builder
	res := quickRunTo(t, &progress, []string{"S7"})
	if len(res.Scenarios) != 1 || len(res.Scenarios[0].Cases) != 2 {
		t.Fatalf("want S7 with two cases:\n%+v", res.Scenarios)
	}
	sc := res.Scenarios[0]
	if !strings.Contains(strings.Join(sc.Notes, "\n"), "the 100,000, 1,000,000 and 10,000,000-page crawls were skipped") {
		t.Errorf("a smoke run does not say what it skipped: %q", sc.Notes)
	}

	// The crawl from the start: -o is the site's URL set, each once, and
	// the site served each page once.
	fresh := sc.Cases[0].Row(crawlVariant)
	if sc.Cases[0].Label != "10,000 pages" || fresh == nil {
		t.Fatalf("first case %q", sc.Cases[0].Label)
	}
	run := fresh.Samples[0].Crawl
	if run == nil {
		t.Fatalf("the crawl failed: %s", fresh.Check)
	}
	sites := run.Lines
	if sites < 10_000 || run.Pages != sites || run.SitePages != int64(sites) || run.SiteRobots != 20 {
		t.Errorf("%d lines, %d records, the site served %d pages and %d robots.txt", run.Lines, run.Pages, run.SitePages, run.SiteRobots)
	}
	if want := "the site's " + itoa(sites) + " URLs, each once; the site served exactly"; !strings.HasPrefix(fresh.Check, want) {
		t.Errorf("check %q, want it to start %q", fresh.Check, want)
	}
	if x, o := fresh.Metrics["site_cpu_s"].Median, fresh.Metrics["other_pct"].Median; runtime.GOOS == "linux" && !(x > 0 && o >= 0) {
		t.Errorf("the site's CPU %v s, the others' %v %%", x, o)
	}
	for _, k := range []string{"pages_s", "rss_mib", "b_url", "first_s", "process_s"} {
		if x := fresh.Metrics[k].Median; !(x > 0) {
			t.Errorf("%s = %v", k, x)
		}
	}

	// Killed at half, then run again: each URL in -o once over both
	// runs, the pages in flight at the kill fetched again and no more,
	// the journal replayed, robots.txt not fetched again.
	c := sc.Cases[1]
	killed, again := c.Row(killedVariant), c.Row(resumedVariant)
	if killed == nil || again == nil || again.Samples[0].Crawl == nil {
		t.Fatalf("the resume case: %+v", c)
	}
	k, r := killed.Samples[0].Crawl, again.Samples[0].Crawl
	if !k.Killed || k.KilledAtLines < sites/2 || k.Lines >= sites || k.SiteRobots != 20 {
		t.Errorf("killed at %d lines, %d whole after, robots %d; the site has %d URLs", k.KilledAtLines, k.Lines, k.SiteRobots, sites)
	}
	if r.Lines != sites || k.Lines+r.Pages != sites {
		t.Errorf("-o has %d lines after both runs (%d + %d); the site has %d URLs", r.Lines, k.Lines, r.Pages, sites)
	}
	refetched := k.SitePages + r.SitePages - int64(sites)
	if refetched < 0 || refetched > crawlMaxTasks || r.SiteRobots != 0 {
		t.Errorf("the site served %d pages more than it has (bound %d), robots.txt %d times after the kill", refetched, crawlMaxTasks, r.SiteRobots)
	}
	if want := "both runs' -o: the site's " + itoa(sites) + " URLs, each once; the site served"; !strings.HasPrefix(again.Check, want) ||
		!strings.Contains(again.Check, "at most --max_tasks") {
		t.Errorf("check %q", again.Check)
	}
	if !slices.ContainsFunc(r.Notices, func(n string) bool { return strings.HasPrefix(n, "resuming the crawl in ") }) {
		t.Errorf("the second run did not resume: %q", r.Notices)
	}
	if !(r.StartSeconds > 0 && r.FirstRequestSeconds > r.StartSeconds && r.ProcessSeconds > r.FirstRequestSeconds) {
		t.Errorf("replay %v s, first request %v s, end %v s: not in that order", r.StartSeconds, r.FirstRequestSeconds, r.ProcessSeconds)
	}

	// The chart, and the smoke run's summary.
	var chart report.Chart
	for _, ch := range report.Charts {
		if ch.Scenario == "S7" {
			chart = ch
		}
	}
	if svg := string(chart.SVG(res)); !strings.Contains(svg, "10,000 pages") || strings.Count(svg, "B/URL<") != 3 {
		t.Errorf("S7's chart:\n%s", svg)
	}
	if got := LookAt(res, nil); !strings.Contains(got, "- S7 (10,000 pages): The real crawler's peak RSS: **") ||
		!strings.Contains(got, "-o, over both runs: the site's "+itoa(sites)+" URLs, each once.") {
		t.Errorf("LookAt:\n%s", got)
	}
	if p := progress.String(); strings.Contains(p, "starting the site (") {
		t.Errorf("S7 alone started the other scenarios' site:\n%s", p)
	}
}

// Every kill and resume has an -o and a --state of its own: a full run
// does two, and the second must not find the first's. Checked by hand:
// with one fixed directory under dir, the second crawl goes on with the
// first one's finished state and -o (here, on the same site) and this
// fails; on another site's, it is refused.
func TestEveryKillAndResumeHasAStateOfItsOwn(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Setenv("GORACE", "atexit_sleep_ms=0") // see quickRunTo
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b := &bench{cfg: Config{Self: self, Progress: io.Discard}, sizes: sizesFor(true)}
	s, err := startSite(self, siteOrder{Pages: 5000, Hosts: 20}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	dir := t.TempDir()
	want, err := b.expectedKeys(context.Background(), 5000, 20, dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		rows, _, err := b.killAndResume(context.Background(), s, dir, want, "5,000 pages")
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 || !strings.HasPrefix(rows[1].Check, "both runs' -o: the site's "+itoa(len(want))+" URLs, each once") {
			t.Fatalf("kill and resume %d: %+v", i+1, rows)
		}
		// The run after the kill fetches what is left, and again the
		// pages whose lines the kill caught before the journal vouched
		// for them (their lines are cut): a few, never the first run's.
		k, r := rows[0].Samples[0].Crawl, rows[1].Samples[0].Crawl
		again := k.Lines + r.Pages - len(want)
		if k.Lines >= len(want) || r.Pages == 0 || again < 0 || again > len(want)/10 {
			t.Errorf("kill and resume %d: killed with %d lines, then %d more; the site has %d URLs", i+1, k.Lines, r.Pages, len(want))
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left behind in the scenario's directory: %v", left)
	}
}

func itoa(n int) string { return report.FormatNumber(float64(n), 0) }
