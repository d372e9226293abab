package harness

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"loopkit/bench/report"
	"loopkit/bench/site"
	"loopkit/bench/workload"
)

// crawl is S4: every variant that can crawl crawls the whole site with
// the same crawl code (bench/frontier: the crawler's link extraction, URL
// normalization and rules), the same concurrency, and must fetch the same
// URLs, which are also the URLs the site's own link graph says a correct
// crawler fetches. Beside pages per second stands the longest stall the
// probe saw: on the loop, parsing a page holds up every connection.
func (b *bench) crawl(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	sc := report.Scenario{
		ID:        "S4",
		Title:     fmt.Sprintf("crawl: the demo site at %s pages, C = %d, the same crawl code on every scheduler", report.FormatNumber(float64(z.pages), 0), z.s4C),
		Rounds:    z.s4Rounds,
		Reference: refVariant,
		Columns: []report.Column{
			{Metric: "pages_s", Header: "pages/s", CI: true, Ratio: true},
			{Metric: "cpu_us", Header: "CPU µs/page", Digits: 1, CI: true, Ratio: true},
			{Metric: "user_us", Header: "user", Digits: 1},
			{Metric: "sys_us", Header: "sys", Digits: 1},
			{Metric: "stall_ms", Header: "longest stall ms", Digits: 1},
			{Metric: "rss_mib", Header: "peak RSS MiB", Digits: 1},
			{Metric: "goroutines", Header: "goroutines"},
			{Metric: "urls", Header: "URLs"},
			{Metric: "failed", Header: "failed"},
		},
		CheckHeader: "URL set",
	}
	var crawlers []string
	for _, name := range b.variants {
		if v, _ := Lookup(name); v.Crawls {
			crawlers = append(crawlers, name)
		}
	}
	want, err := expectedURLs(z.pages, b.site.url)
	if err != nil {
		return sc, err
	}
	job := workload.Job{Kind: workload.Crawl, URL: b.site.url, C: z.s4C, Probe: true}
	samples, err := b.collect(ctx, "S4 crawl", z.s4Rounds, crawlers, job, runOpts{})
	if err != nil {
		return sc, err
	}
	t := b.table(samples, func(s report.Sample) map[string]float64 {
		m := common(s)
		m["pages_s"], m["urls"], m["stall_ms"] = math.NaN(), float64(len(s.URLs)), math.NaN()
		if s.WallSeconds > 0 {
			m["pages_s"] = float64(s.OK+s.Failed) / s.WallSeconds
			m["stall_ms"] = float64(s.StallNS) / 1e6
		}
		return m
	})
	rows := t.rows(refVariant, "pages_s", "cpu_us")
	same := true
	for i := range rows {
		rows[i].Check = compareSets(rows[i].Samples, want)
		same = same && strings.HasPrefix(rows[i].Check, "same")
		for j := range rows[i].Samples {
			rows[i].Samples[j].URLs = nil // compared; too many to keep
		}
	}
	label := fmt.Sprintf("C = %d", z.s4C)
	sc.Cases = append(sc.Cases, report.Case{Label: label, Rows: rows})
	sc.Comparisons = append(t.compare(label, "pages_s", crawlPairs), t.compare(label, "cpu_us", crawlCPUPairs)...)
	verdict := fmt.Sprintf("Every run of every variant fetched exactly the %d URLs of the site's own link graph "+
		"(site.Expected, robots.txt off).", len(want))
	if !same {
		verdict = fmt.Sprintf("NOT every run fetched the %d URLs of the site's link graph (site.Expected): "+
			"see the URL set column.", len(want))
	}
	sc.Notes = append(sc.Notes, verdict,
		"Every variant crawls with bench/frontier (crawler/links, crawler/urlnorm, the crawler's redirect and "+
			"content-type rules); the loop variants parse pages on the loop, the goroutine variants in the goroutine "+
			"that fetched them. Pages/s and CPU/page are over the whole crawl, start-up included. The floors do not crawl.",
		"Longest stall: a 1 ms timer set again and again on the variant's scheduler (a loop timer on the loop, a "+
			"goroutine elsewhere); its worst lateness is the longest the scheduler went without getting to its "+
			"timers: on the loop, the longest run of callbacks between two polls. Around 1 ms is the timers' own "+
			"resolution (both round sub-millisecond waits up to 1 ms).")
	sc.Notes = append(sc.Notes, failureNotes(samples, crawlers)...)
	return sc, nil
}

var crawlPairs = []pair{
	{"scheduler", loopVariant, fairVariant, "pages/s: loop callbacks ÷ goroutine per conn, same crawl and HTTP code"},
	{"scheduler", "reactor-tasks", fairVariant, "pages/s: loop tasks ÷ goroutine per conn"},
	{"HTTP client", fairVariant, refVariant, "pages/s: loopkit's HTTP code ÷ net/http, goroutine per conn"},
}

var crawlCPUPairs = []pair{
	{"scheduler", loopVariant, fairVariant, "CPU/page: loop callbacks ÷ goroutine per conn"},
	{"HTTP client", refVariant, fairVariant, "CPU/page: net/http ÷ loopkit's HTTP code, goroutine per conn"},
}

// expectedURLs is the site's own answer to "which URLs does a correct
// crawler fetch", for a site of this many pages served at root. It builds
// the same site in this process (on a port of its own, closed at once)
// and moves its URLs to root.
func expectedURLs(pages int, root string) ([]string, error) {
	s, err := site.Start(site.Config{Pages: pages}, "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer s.Close()
	here := strings.TrimSuffix(s.URL(), "/")
	there := strings.TrimSuffix(root, "/")
	var out []string
	for _, u := range s.Expected(false) {
		out = append(out, there+strings.TrimPrefix(u, here))
	}
	slices.Sort(out)
	return out, nil
}

// compareSets says whether every sample's URLs are want.
func compareSets(samples []report.Sample, want []string) string {
	for i, s := range samples {
		if s.WallSeconds == 0 {
			return fmt.Sprintf("run %d did not run", i+1)
		}
		if !slices.Equal(s.URLs, want) {
			missing, extra := difference(want, s.URLs), difference(s.URLs, want)
			return fmt.Sprintf("differs in run %d: %d missing (e.g. %s), %d extra (e.g. %s)",
				i+1, len(missing), first(missing), len(extra), first(extra))
		}
	}
	return fmt.Sprintf("same (%d)", len(want))
}

// difference is what sorted a has and sorted b lacks.
func difference(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
		}
	}
	return out
}

func first(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return s[0]
}
