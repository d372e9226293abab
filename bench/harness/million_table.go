package harness

import (
	"fmt"
	"math"
	"runtime"
	"strings"

	"loopkit/bench/report"
	"loopkit/bench/stats"
)

// S7's table: a row per run, its metrics, the comparisons between its
// rows, and the notes that say how it ran.

// millionRow makes a table row of one run.
func millionRow(s report.Sample, check string) report.Row {
	row := report.Row{Variant: s.Variant, Metrics: make(map[string]report.Summary), Samples: []report.Sample{s}, Check: check}
	for k, x := range millionMetrics(s) {
		row.Metrics[k] = report.Summarize([]float64{x})
	}
	return row
}

func millionMetrics(s report.Sample) map[string]float64 {
	m := map[string]float64{}
	for _, k := range []string{"pages", "pages_s", "rss_mib", "b_url", "cpu_s", "site_cpu_s", "other_pct", "start_s", "first_s", "process_s", "queued"} {
		m[k] = math.NaN()
	}
	r := s.Crawl
	if r == nil {
		return m
	}
	m["pages"] = float64(r.Pages)
	if r.CrawlSeconds > 0 {
		m["pages_s"] = float64(r.Pages) / r.CrawlSeconds
	}
	if s.PeakRSSBytes > 0 {
		m["rss_mib"] = float64(s.PeakRSSBytes) / (1 << 20)
		if r.Lines > 0 {
			m["b_url"] = float64(s.PeakRSSBytes) / float64(r.Lines)
		}
	}
	// Zero is a figure nobody measured: the child's own for a run that
	// was killed, a first request that never came, /proc where it is not.
	positive := func(x float64) float64 {
		if x > 0 {
			return x
		}
		return math.NaN()
	}
	m["cpu_s"], m["first_s"], m["process_s"] = positive(r.CPUSeconds), positive(r.FirstRequestSeconds), positive(r.ProcessSeconds)
	if w := s.Window; w.Measured && r.ProcessSeconds > 0 {
		m["site_cpu_s"], m["other_pct"] = w.SiteCPUSeconds, w.OtherCPUSeconds/r.ProcessSeconds*100 // of one processor
	}
	if !r.Killed {
		m["start_s"], m["queued"] = r.StartSeconds, float64(r.QueuedPeak)
	}
	return m
}

// millionComparisons are what S7's rows say together: how much memory
// each added URL costs between two sizes, how a million compares with a
// hundred thousand, what --state costs, and what a resume costs.
func millionComparisons(cases []report.Case) []report.Comparison {
	var out []report.Comparison
	one := func(x float64) stats.Estimate { return stats.Estimate{Value: x, Lo: math.NaN(), Hi: math.NaN(), N: 1} }
	var prev *report.Case
	for i := range cases {
		c := &cases[i]
		if c.Row(crawlVariant) == nil {
			continue
		}
		if prev != nil {
			a, z := prev.Row(crawlVariant).Samples[0], c.Row(crawlVariant).Samples[0]
			if a.Crawl != nil && z.Crawl != nil && z.Crawl.Lines > a.Crawl.Lines {
				out = append(out,
					report.Comparison{Case: c.Label, Group: "memory", What: "peak RSS added per URL added, from " + prev.Label,
						Value: one(float64(z.PeakRSSBytes-a.PeakRSSBytes) / float64(z.Crawl.Lines-a.Crawl.Lines)), Unit: "B"},
					report.Comparison{Case: c.Label, Group: "memory", What: "peak RSS ÷ the peak at " + prev.Label,
						Value: one(float64(z.PeakRSSBytes) / float64(a.PeakRSSBytes)), Unit: "×", Digits: 2})
			}
		}
		prev = c
	}
	for i := range cases {
		c := &cases[i]
		killed, again := c.Row(killedVariant), c.Row(resumedVariant)
		if killed == nil || again == nil || i == 0 || cases[i-1].Row(crawlVariant) == nil {
			continue
		}
		fresh := cases[i-1].Row(crawlVariant)
		out = append(out,
			report.Comparison{Case: c.Label, Group: "--state", What: "pages/s with --state (the killed run, to the kill) ÷ without",
				Value: one(killed.Metrics["pages_s"].Median / fresh.Metrics["pages_s"].Median), Unit: "×", Digits: 2},
			report.Comparison{Case: c.Label, Group: "resume", What: "first request after a start: the run after the kill − a fresh crawl",
				Value: one(again.Metrics["first_s"].Median - fresh.Metrics["first_s"].Median), Unit: "s", Digits: 3})
	}
	return out
}

// millionNotes say how S7 ran and what it checked.
func millionNotes(b *bench, z sizes) []string {
	var notes []string
	if b.cfg.Quick {
		notes = append(notes, "A smoke run crawls 10,000 pages only, and kills and resumes at that size: the "+
			"100,000, 1,000,000 and 10,000,000-page crawls were skipped. A full run crawls all four sizes, once each, "+
			"and kills and resumes at 100,000, at a million and at ten million: about half an hour.")
	}
	where := "every processor"
	if b.clientCPUs != nil {
		where = "every processor, the site's too (the crawl command's default), the site pinned to CPU " + cpuList(b.siteCPUs)
	}
	return append(notes,
		fmt.Sprintf("One run per row. The site (package site, net/http) is split over %d hosts on consecutive ports "+
			"and runs in a process of its own, a new one for each size. The crawler is crawler.NewGroup in a child "+
			"process, set up as the crawl command is by default: %d tasks, robots.txt obeyed, up to 100,000 queued URLs "+
			"in memory and the rest on disk, the seen set's hashes of up to 1,000,000 URLs in memory and the rest on "+
			"disk, -o to a file, no per-URL report (--report_urls 0); its loops and parse workers at GOMAXPROCS=%d, "+
			"on %s.", z.s7Hosts, crawlMaxTasks, runtime.NumCPU(), where),
		"pages/s: the run's records over its crawl (after -o and --state are opened); peak RSS: the process's high-water "+
			"mark (VmHWM); B/URL: peak RSS over the URLs in -o. CPU: the crawler's, user and system; site CPU: the site "+
			"process's over the same time; others' CPU: what the rest of the machine used meanwhile (from /proc/stat), in "+
			"% of one processor over the process's life. open + replay: from the process's start until the crawl "+
			"starts, as the child measured it. first request: from the harness starting the process until the site saw "+
			"its first request (the harness polls the site every 5 ms). process: until it exited, or was killed.",
		"-o checked against the site: its URLs against the site's own link graph (site.EachExpected, robots.txt "+
			"obeyed), each once, compared as 128-bit hashes — the walk runs in a process of its own, since at ten "+
			"million pages it takes over a minute and a few GB — and its lines against the requests the site counted, "+
			"robots.txt's left out.",
		"The killed run: the harness watches -o and sends SIGKILL once it has half the site's URLs; its peak RSS and "+
			"CPU are read from /proc just before. Its pages/s are its lines over the time from its first request to the kill.")
}

// sizeLabel is the label of S7's case of a site of pages.
func sizeLabel(pages int) string { return report.FormatNumber(float64(pages), 0) + " pages" }

// millionRowAt is the plain crawl of a site of pages, if it ran.
func millionRowAt(sc *report.Scenario, pages int) *report.Row {
	for i := range sc.Cases {
		if sc.Cases[i].Label == sizeLabel(pages) {
			return sc.Cases[i].Row(crawlVariant)
		}
	}
	return nil
}

// millionTargets are what the project asked of a crawl of a million
// pages over 20 hosts, on a 2-core machine: memory that hardly grows with
// the crawl, at a speed no lower than the crawler had when it kept every
// record (11,000 pages a second).
func millionTargets(sc report.Scenario) []report.Target {
	big, mid := millionRowAt(&sc, 1_000_000), millionRowAt(&sc, 100_000)
	if big == nil {
		return nil
	}
	rss := big.Metrics["rss_mib"].Median
	out := []report.Target{judge("S7", "the crawler's peak RSS at 1,000,000 pages", "≤ 250 MiB", rss,
		fmt.Sprintf("%.1f MiB", rss), func(x float64) bool { return x <= 250 })}
	if mid != nil {
		r := rss / mid.Metrics["rss_mib"].Median
		out = append(out, judge("S7", "… against its peak at 100,000 pages", "≤ 1.30×", r,
			fmt.Sprintf("%.2f×", r), func(x float64) bool { return x <= 1.3 }))
	}
	speed := big.Metrics["pages_s"].Median
	out = append(out, judge("S7", "pages/s at 1,000,000 pages", "≥ 11,000", speed,
		report.FormatNumber(speed, 0), func(x float64) bool { return x >= 11_000 }))
	return append(out, tenMillionTargets(sc, big)...)
}

// tenMillionTargets are what the project asked of ten million pages on
// the same machine: memory flat (a peak at most 1.3 times the million's),
// a speed at least 0.8 times the million's, and a restart at half that
// sends its first request within 5 s of its start.
func tenMillionTargets(sc report.Scenario, million *report.Row) []report.Target {
	ten := millionRowAt(&sc, 10_000_000)
	if ten == nil {
		return nil
	}
	rss := ten.Metrics["rss_mib"].Median / million.Metrics["rss_mib"].Median
	speed := ten.Metrics["pages_s"].Median / million.Metrics["pages_s"].Median
	out := []report.Target{
		judge("S7", "the crawler's peak RSS at 10,000,000 pages, against its peak at 1,000,000", "≤ 1.30×", rss,
			fmt.Sprintf("%.2f×", rss), func(x float64) bool { return x <= 1.3 }),
		judge("S7", "pages/s at 10,000,000 pages, against 1,000,000", "≥ 0.80×", speed,
			fmt.Sprintf("%.2f×", speed), func(x float64) bool { return x >= 0.8 }),
		exactly("-o at 10,000,000 pages", ten.Check, "the site's ")}
	for i := range sc.Cases {
		if c := &sc.Cases[i]; strings.HasPrefix(c.Label, sizeLabel(10_000_000)+",") {
			if again := c.Row(resumedVariant); again != nil {
				first := again.Metrics["first_s"].Median
				out = append(out, judge("S7", "killed at half of 10,000,000 pages: the first request after the start",
					"≤ 5 s", first, fmt.Sprintf("%.3f s", first), func(x float64) bool { return x <= 5 }),
					exactly("… and -o over both runs", again.Check, "both runs' -o: the site's "))
			}
		}
	}
	return out
}

// exactly is the target "the site's URLs, each once" of a row whose
// check, if it met it, starts with ok.
func exactly(what, check, ok string) report.Target {
	got, _, _ := strings.Cut(check, ";")
	return report.Target{Scenario: "S7", What: what + ": the site's URLs, each once", Want: "each once",
		Got: got, Met: strings.HasPrefix(check, ok) && !strings.Contains(check, "DIFFERS")}
}

// millionLookAt is S7's line in a smoke run's summary.
func millionLookAt(s *report.Scenario) string {
	var sizes []string
	var last, fresh, again *report.Row // the resumed run, and the fresh crawl of its size
	for i := range s.Cases {
		c := &s.Cases[i]
		if r := c.Row(crawlVariant); r != nil {
			last = r
			sizes = append(sizes, fmt.Sprintf("**%.1f MiB** at %s (%s B per URL)", r.Metrics["rss_mib"].Median,
				c.Label, report.FormatNumber(r.Metrics["b_url"].Median, 0)))
		}
		if r := c.Row(resumedVariant); r != nil && again == nil {
			fresh, again = last, r
		}
	}
	if len(sizes) == 0 {
		return ""
	}
	out := "The real crawler's peak RSS: " + strings.Join(sizes, ", ") + "."
	if fresh != nil && again != nil {
		out += fmt.Sprintf(" Killed with SIGKILL at half and run again, it sent its first request %.3f s after it "+
			"started (a fresh crawl: %.3f s). -o, over both runs: %s.", again.Metrics["first_s"].Median,
			fresh.Metrics["first_s"].Median, strings.TrimPrefix(strings.SplitN(again.Check, ";", 2)[0], "both runs' -o: "))
	}
	return out
}
