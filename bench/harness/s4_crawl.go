package harness

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"loopkit/bench/report"
	"loopkit/bench/workload"
	"loopkit/site"
)

// crawl is S4: every variant that can crawl crawls the whole site with
// the same crawl code (bench/crawlrules: the crawler's link extraction, URL
// normalization and rules), the same concurrency, and must fetch the same
// URLs, which are also the URLs the site's own link graph says a correct
// crawler fetches. Beside pages per second stands the longest stall the
// probe saw: on the loop, parsing a page holds up every connection.
func (b *bench) crawl(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	sc := report.Scenario{
		ID:        "S4",
		Title:     fmt.Sprintf("crawl: the same crawl code on every scheduler; the demo site at %s pages, then %s real-size pages", report.FormatNumber(float64(z.pages), 0), report.FormatNumber(float64(z.s4RealPages), 0)),
		Rounds:    z.s4Rounds,
		Reference: refVariant,
		Columns: []report.Column{
			{Metric: "pages_s", Header: "pages/s", CI: true, Ratio: true},
			{Metric: "cpu_us", Header: "CPU µs/page", Digits: 1, CI: true, Ratio: true},
			{Metric: "user_us", Header: "user", Digits: 1},
			{Metric: "sys_us", Header: "sys", Digits: 1},
			{Metric: "mb_s", Header: "MB/s", Digits: 1},
			{Metric: "stall_ms", Header: "longest stall ms", Digits: 1},
			{Metric: "rss_mib", Header: "peak RSS MiB", Digits: 1},
			{Metric: "goroutines", Header: "goroutines"},
			{Metric: "urls", Header: "URLs"},
			{Metric: "failed", Header: "failed"},
		},
		CheckHeader: "URL set",
	}
	crawlers := slices.Clone(b.only["S4"])
	for _, name := range b.variants {
		if v, _ := Lookup(name); v.Crawls {
			crawlers = append(crawlers, name)
		}
	}
	var verdicts []string
	for _, pageBytes := range []int{0, realPageBytes} {
		pages, label := z.pages, fmt.Sprintf("C = %d", z.s4C)
		if pageBytes > 0 {
			pages = z.s4RealPages
			label = fmt.Sprintf("C = %d, %s pages of %d KiB, the client on all %d processors", z.s4C,
				report.FormatNumber(float64(pages), 0), pageBytes>>10, runtime.NumCPU())
		}
		verdict, err := b.crawlCase(ctx, &sc, crawlers, label, pages, pageBytes)
		if err != nil {
			return sc, err
		}
		verdicts = append(verdicts, verdict)
	}
	sc.Notes = append(sc.Notes, verdicts...)
	sc.Notes = append(sc.Notes,
		"Every variant crawls with bench/crawlrules (crawler/links, crawler/urlnorm, the crawler's redirect and "+
			"content-type rules); the loop variants parse pages on the loop, the goroutine variants in the goroutine "+
			"that fetched them. Pages/s and CPU/page are over the whole crawl, start-up included. The floors do not crawl.",
		"Longest stall: a 1 ms timer set again and again on the variant's scheduler (a loop timer on the loop, a "+
			"goroutine elsewhere); its worst lateness is the longest the scheduler went without getting to its "+
			"timers: on the loop, the longest run of callbacks between two polls. Around 1 ms is the timers' own "+
			"resolution (both round sub-millisecond waits up to 1 ms).")
	return sc, nil
}

// realPageBytes is the size of S4's real-size pages: documentation's.
const realPageBytes = 64 << 10

// crawlCase crawls a site of pages (book pages padded to pageBytes, if
// not 0) with every crawler: its own site process, its own case.
func (b *bench) crawlCase(ctx context.Context, sc *report.Scenario, crawlers []string, label string, pages, pageBytes int) (string, error) {
	z := b.sizes
	if pageBytes > 0 {
		real, err := startSite(b.cfg.Self, siteOrder{Pages: pages, PageBytes: pageBytes}, b.meta.SiteProcs, b.siteCPUs)
		if err != nil {
			return "", err
		}
		defer real.close()
		main := b.site
		b.site = real
		defer func() { b.site = main }()
	}
	want, err := expectedURLs(pages, b.site.url)
	if err != nil {
		return "", err
	}
	job := workload.Job{Kind: workload.Crawl, URL: b.site.url, C: z.s4C, Probe: true}
	// Real-size pages are where parsing costs: every client may use every
	// processor for it, as a crawl on a real machine would.
	samples, err := b.collect(ctx, "S4 "+label, z.s4Rounds, crawlers, job, runOpts{everyCPU: pageBytes > 0})
	if err != nil {
		return "", err
	}
	t := b.table(samples, func(s report.Sample) map[string]float64 {
		m := common(s)
		m["pages_s"], m["urls"], m["stall_ms"], m["mb_s"] = math.NaN(), float64(len(s.URLs)), math.NaN(), math.NaN()
		if s.WallSeconds > 0 {
			m["pages_s"] = float64(s.OK+s.Failed) / s.WallSeconds
			m["mb_s"] = float64(s.BodyBytes) / 1e6 / s.WallSeconds
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
	sc.Cases = append(sc.Cases, report.Case{Label: label, Rows: rows})
	sc.Comparisons = append(sc.Comparisons, t.compare(label, "pages_s", crawlPairs)...)
	sc.Comparisons = append(sc.Comparisons, t.compare(label, "cpu_us", crawlCPUPairs)...)
	sc.Notes = append(sc.Notes, failureNotes(samples, crawlers)...)
	if !same {
		return fmt.Sprintf("%s: NOT every run fetched the %d URLs of the site's link graph (site.Expected): "+
			"see the URL set column.", label, len(want)), nil
	}
	return fmt.Sprintf("%s: every run of every variant fetched exactly the %d URLs of the site's own link graph "+
		"(site.Expected, robots.txt off).", label, len(want)), nil
}

var crawlPairs = []pair{
	{"waiting and computing", parseOffVariant, loopVariant, "pages/s: loop callbacks, parsing off the loop ÷ on it"},
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
