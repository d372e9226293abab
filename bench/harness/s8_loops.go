package harness

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"

	"loopkit/bench/report"
	"loopkit/bench/stats"
	"loopkit/crawler"
)

// loops is S8: does a second loop pay? A default must never be worse
// than the simplest choice, so the real crawler (the crawl child of S7)
// crawls the demo site with a loop per processor (at most 8) and with
// --loops 1, in pairs on the same site process, the order alternating
// from pair to pair so that a machine growing busier weighs on both
// alike. Per host count (one server, 20, 200): the two runs' wall and
// CPU times, and the pairs' ratios, per processor ÷ one loop, with their
// spread. crawler.DefaultLoops picks between the two by what this
// scenario measured on two processors; the notes say which it picks here.
func (b *bench) loops(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	perCPU := min(runtime.NumCPU(), 8)
	sc := report.Scenario{
		ID: "S8",
		Title: fmt.Sprintf("a loop per processor against one: the real crawler, %s pages, --loops %d and --loops 1 in %d alternating pairs",
			report.FormatNumber(float64(z.s8Pages), 0), perCPU, z.s8Pairs),
		Rounds:    z.s8Pairs,
		Reference: oneLoopVariant,
		Columns: []report.Column{
			{Metric: "wall_s", Header: "wall s", Digits: 2, Ratio: true},
			{Metric: "cpu_s", Header: "CPU s", Digits: 2, Ratio: true},
			{Metric: "pages", Header: "pages"},
			{Metric: "rss_mib", Header: "peak RSS MiB", Digits: 1},
			{Metric: "other_pct", Header: "others' CPU %"},
		},
	}
	dir, err := os.MkdirTemp("", "loopkit-bench-loops-*")
	if err != nil {
		return sc, err
	}
	defer os.RemoveAll(dir)
	for _, hosts := range z.s8Hosts {
		c, notes, err := b.loopsCase(ctx, dir, hosts, perCPU)
		if err != nil {
			return sc, err
		}
		sc.Cases = append(sc.Cases, c)
		sc.Notes = append(sc.Notes, notes...)
	}
	for _, c := range sc.Cases {
		for _, m := range []struct{ metric, what string }{{"wall_s", "wall"}, {"cpu_s", "CPU"}} {
			if r := c.Row(perCPULoopsVariant); r != nil && r.Ratios != nil {
				sc.Comparisons = append(sc.Comparisons, report.Comparison{Case: c.Label, Group: "loops",
					What: m.what + ": a loop per processor ÷ --loops 1, paired", Value: r.Ratios[m.metric], Unit: "×", Digits: 2})
			}
		}
	}
	sc.Notes = append([]string{fmt.Sprintf("A loop per processor is %d loops here (%d processors); the crawl command's default, "+
		"crawler.DefaultLoops(), is %d: one loop with two processors or fewer, where this scenario found a second loop costs more "+
		"than it saves, else a loop per processor. Wall is the crawl's own time, from its first request to its end; CPU is the crawl "+
		"process's user and system time. Ratios are per pair, then their median with its 95 %% interval; each pair's is in the notes.",
		perCPU, runtime.NumCPU(), crawler.DefaultLoops())}, sc.Notes...)
	if perCPU == 1 {
		sc.Notes = append(sc.Notes, "One processor: both rows run one loop, and their ratios measure the noise.")
	}
	return sc, nil
}

// loopsCase runs the pairs on a site of z.s8Pages pages over hosts.
func (b *bench) loopsCase(ctx context.Context, dir string, hosts, perCPU int) (report.Case, []string, error) {
	z := b.sizes
	label := fmt.Sprintf("%d host", hosts)
	if hosts > 1 {
		label += "s"
	}
	s, err := startSite(b.cfg.Self, siteOrder{Pages: z.s8Pages, Hosts: hosts}, b.meta.SiteProcs, b.siteCPUs)
	if err != nil {
		return report.Case{}, nil, err
	}
	defer s.close()
	out := filepath.Join(dir, "crawl.jsonl")
	samples := map[string][]report.Sample{}
	for pair := 1; pair <= z.s8Pairs; pair++ {
		order := []string{perCPULoopsVariant, oneLoopVariant}
		if pair%2 == 0 {
			order[0], order[1] = order[1], order[0]
		}
		for _, v := range order {
			loops := perCPU
			if v == oneLoopVariant {
				loops = 1
			}
			sample, err := b.crawlLoops(ctx, s, crawlOrder{Roots: s.roots, Output: out, Loops: loops}, v)
			if err != nil {
				return report.Case{}, nil, err
			}
			os.Remove(out)
			samples[v] = append(samples[v], sample)
			b.logf("S8 %s pair %d/%d %s: %.2f s, %.2f CPU s", label, pair, z.s8Pairs, v, sample.Crawl.CrawlSeconds, sample.Crawl.CPUSeconds)
		}
	}
	values := map[string]map[string][]float64{}
	var rows []report.Row
	for _, v := range []string{perCPULoopsVariant, oneLoopVariant} {
		values[v] = map[string][]float64{}
		row := report.Row{Variant: v, Metrics: map[string]report.Summary{}, Samples: samples[v]}
		for _, sm := range samples[v] {
			for k, x := range loopsMetrics(sm) {
				values[v][k] = append(values[v][k], x)
			}
		}
		for k, xs := range values[v] {
			row.Metrics[k] = report.Summarize(xs)
		}
		rows = append(rows, row)
	}
	var notes []string
	for i := range rows {
		rows[i].Ratios = map[string]stats.Estimate{}
		for _, k := range []string{"wall_s", "cpu_s"} {
			a, ref := values[rows[i].Variant][k], values[oneLoopVariant][k]
			rows[i].Ratios[k] = stats.PairedRatio(a, ref, seed)
			if rows[i].Variant == perCPULoopsVariant {
				pairs := stats.Paired(a, ref, stats.Ratio)
				notes = append(notes, fmt.Sprintf("%s, %s, a loop per processor ÷ --loops 1, pair by pair: %s.", label, k, joinRatios(pairs)))
			}
		}
	}
	if d, o := values[perCPULoopsVariant]["pages"], values[oneLoopVariant]["pages"]; stats.Median(d) != stats.Median(o) {
		notes = append(notes, fmt.Sprintf("%s: the two crawled different page counts (%v and %v): compare with care.", label, d, o))
	}
	return report.Case{Label: label, Rows: rows}, notes, nil
}

// crawlLoops runs one crawl to its end. A crawl that fails fails the
// scenario: a ratio with a failed run in it would mean nothing.
func (b *bench) crawlLoops(ctx context.Context, s *siteProcess, o crawlOrder, variant string) (report.Sample, error) {
	if err := s.reset(); err != nil {
		return report.Sample{}, fmt.Errorf("resetting the site: %w", err)
	}
	b.noteLoad()
	w := openMachineWindow(s)
	p, err := b.startCrawl(ctx, o)
	if err != nil {
		return report.Sample{}, err
	}
	sample, err := p.sample()
	if err != nil {
		return report.Sample{}, err
	}
	sample.Variant = variant
	w.close(s, &sample.Window, sample.Crawl.CPUSeconds)
	return sample, nil
}

func loopsMetrics(s report.Sample) map[string]float64 {
	r := s.Crawl
	m := map[string]float64{"wall_s": r.CrawlSeconds, "cpu_s": r.CPUSeconds, "pages": float64(r.Pages),
		"rss_mib": float64(s.PeakRSSBytes) / (1 << 20), "other_pct": math.NaN()}
	if w := s.Window; w.Measured && r.ProcessSeconds > 0 {
		m["other_pct"] = w.OtherCPUSeconds / r.ProcessSeconds * 100
	}
	return m
}

// joinRatios prints ratios as "0.98×, 1.03×, …".
func joinRatios(xs []float64) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%.2f×", x)
	}
	return out
}
