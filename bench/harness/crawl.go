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

// crawl is S4: every variant crawls the whole site with the same
// concurrency and the same rules, and must fetch the same URLs, which are
// also the URLs the site's own link graph says a correct crawler fetches.
func (b *bench) crawl(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	sc := report.Scenario{
		ID:    "S4",
		Title: fmt.Sprintf("crawl: the demo site at %s pages, C = %d", report.FormatNumber(float64(z.pages), 0), z.s4C),
		Columns: []report.Column{
			{Metric: "pages_s", Header: "pages/s", Spread: true, Ratio: true},
			{Metric: "cpu_us", Header: "CPU µs/page", Digits: 1, Spread: true},
			{Metric: "rss_mib", Header: "peak RSS MiB", Digits: 1, Spread: true},
			{Metric: "goroutines", Header: "goroutines"},
			{Metric: "urls", Header: "URLs"},
			{Metric: "failed", Header: "failed"},
		},
		CheckHeader: "URL set",
	}
	want, err := expectedURLs(z.pages, b.site.url)
	if err != nil {
		return sc, err
	}
	job := workload.Job{Kind: workload.Crawl, URL: b.site.url, C: z.s4C}
	samples, err := b.samples(ctx, "S4 crawl", job)
	if err != nil {
		return sc, err
	}
	rows := b.rows(samples, func(_ string, _ int, s report.Sample) map[string]float64 {
		m := common(s)
		m["pages_s"], m["urls"] = math.NaN(), float64(len(s.URLs))
		if s.WallSeconds > 0 {
			m["pages_s"] = float64(s.OK+s.Failed) / s.WallSeconds
		}
		return m
	})
	same := true
	for i := range rows {
		rows[i].Check = compareSets(rows[i].Samples, want)
		same = same && strings.HasPrefix(rows[i].Check, "same")
		for j := range rows[i].Samples {
			rows[i].Samples[j].URLs = nil // compared; too many to keep
		}
	}
	sc.Cases = append(sc.Cases, report.Case{Label: fmt.Sprintf("C = %d", z.s4C), Rows: rows})
	verdict := fmt.Sprintf("Every run of every variant fetched exactly the %d URLs of the site's own link graph "+
		"(site.Expected, robots.txt off).", len(want))
	if !same {
		verdict = fmt.Sprintf("NOT every run fetched the %d URLs of the site's link graph (site.Expected): "+
			"see the URL set column.", len(want))
	}
	sc.Notes = append(sc.Notes, verdict,
		"The net/http variants and reactor-callbacks crawl with bench/frontier (crawler/links, crawler/urlnorm, "+
			"the crawler's rules); reactor-tasks is the crawler package itself, with C workers and C requests per host.")
	sc.Notes = append(sc.Notes, failureNotes(samples, b.variants)...)
	return sc, nil
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
