package harness

import (
	"math"

	"loopkit/bench/report"
	"loopkit/bench/stats"
)

// seed makes every bootstrap interval of a report reproducible from its
// samples: the same samples give the same intervals.
const seed = 1

// table is the metrics of a scenario's case, per variant and per round:
// values[v][metric][r] is round r+1's, NaN where that run measured
// nothing. Keeping rounds apart is what lets two variants be paired.
type table struct {
	variants []string
	samples  map[string][]report.Sample
	values   map[string]map[string][]float64
}

// table computes f for every sample.
func (b *bench) table(samples map[string][]report.Sample, f func(report.Sample) map[string]float64) *table {
	t := &table{samples: samples, values: make(map[string]map[string][]float64)}
	for _, v := range Names() { // table order, whichever scenario's variants these are
		if len(samples[v]) == 0 {
			continue
		}
		t.variants = append(t.variants, v)
		t.values[v] = make(map[string][]float64)
		for i, s := range samples[v] {
			for k, x := range f(s) {
				vals := t.values[v][k]
				for len(vals) < i {
					vals = append(vals, math.NaN())
				}
				t.values[v][k] = append(vals, x)
			}
		}
	}
	return t
}

// rows summarizes every variant, in table order, with the paired ratios
// of the given metrics to ref.
func (t *table) rows(ref string, ratios ...string) []report.Row {
	var rows []report.Row
	for _, v := range t.variants {
		row := report.Row{Variant: v, Metrics: make(map[string]report.Summary), Samples: t.samples[v]}
		for k, xs := range t.values[v] {
			row.Metrics[k] = report.Summarize(xs)
		}
		if _, ok := t.values[ref]; ok {
			row.Ratios = make(map[string]stats.Estimate)
			for _, k := range ratios {
				row.Ratios[k] = t.ratio(v, ref, k)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// ratio is a's metric over b's, paired round by round.
func (t *table) ratio(a, b, metric string) stats.Estimate {
	return stats.PairedRatio(t.values[a][metric], t.values[b][metric], seed)
}

// difference is a's metric minus b's, paired round by round.
func (t *table) difference(a, b, metric string) stats.Estimate {
	d := stats.Paired(t.values[a][metric], t.values[b][metric], func(x, y float64) float64 { return x - y })
	return stats.Bootstrap(d, stats.Median, seed)
}

func (t *table) has(vs ...string) bool {
	for _, v := range vs {
		if _, ok := t.values[v]; !ok {
			return false
		}
	}
	return true
}

// pair is a comparison one group of variants exists to make: a's metric
// over b's, where a and b differ in one thing only.
type pair struct {
	group, a, b, what string
}

// compare estimates metric's paired ratio for every pair whose variants
// both ran.
func (t *table) compare(label, metric string, pairs []pair) []report.Comparison {
	var out []report.Comparison
	for _, p := range pairs {
		if t.has(p.a, p.b) {
			out = append(out, report.Comparison{Case: label, Group: p.group, What: p.what,
				Value: t.ratio(p.a, p.b, metric), Unit: "×", Digits: 2})
		}
	}
	return out
}

// gap splits the CPU per request between the loop's callbacks and
// net/http's worker pool in two, each a paired difference: the scheduler
// (loopkit's HTTP code on goroutines, minus the same on the loop) and the
// HTTP client (net/http, minus loopkit's code, both on goroutines), and
// states the scheduler's share of the whole, round by round.
func (t *table) gap(label, metric string) []report.Comparison {
	cb, fair, pool := loopVariant, fairVariant, refVariant
	if !t.has(cb, fair, pool) {
		return nil
	}
	share := stats.Paired(t.values[fair][metric], t.values[cb][metric], func(x, y float64) float64 { return x - y })
	total := stats.Paired(t.values[pool][metric], t.values[cb][metric], func(x, y float64) float64 { return x - y })
	var shares []float64
	for i := range min(len(share), len(total)) {
		shares = append(shares, stats.Ratio(share[i], total[i])*100)
	}
	return []report.Comparison{
		{Case: label, Group: "the gap", What: "CPU µs/req, net/http pool − loop callbacks", Unit: "µs", Digits: 1,
			Value: t.difference(pool, cb, metric)},
		{Case: label, Group: "the gap", What: "… of which the scheduler: goroutine per conn − loop callbacks (same HTTP code)",
			Unit: "µs", Digits: 1, Value: t.difference(fair, cb, metric)},
		{Case: label, Group: "the gap", What: "… of which the HTTP client: net/http pool − goroutine per conn with loopkit's code",
			Unit: "µs", Digits: 1, Value: t.difference(pool, fair, metric)},
		{Case: label, Group: "the gap", What: "the scheduler's share of the gap", Unit: "%", Digits: 0,
			Value: stats.Bootstrap(shares, stats.Median, seed)},
	}
}
