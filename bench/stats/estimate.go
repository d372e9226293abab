package stats

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
)

// Estimate is a statistic of some runs with its 95 % confidence interval.
// N is the number of runs it rests on; with none, every number is NaN.
type Estimate struct {
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	N     int     `json:"n"`
}

// Resamples is how many bootstrap resamples an interval is computed from:
// enough that the interval's ends move by well under a percent between
// seeds, few enough to cost milliseconds.
const Resamples = 10_000

// Median returns the median of xs, NaN values left out (a run that could
// not measure something). The median of an even count is the mean of the
// two middle values. With nothing left it is NaN.
func Median(xs []float64) float64 {
	v := finite(xs)
	if len(v) == 0 {
		return math.NaN()
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// MedianCI is the median of xs with its percentile-bootstrap interval.
func MedianCI(xs []float64, seed uint64) Estimate {
	return Bootstrap(finite(xs), Median, seed)
}

// Bootstrap estimates stat over xs with a 95 % percentile-bootstrap
// interval: stat of Resamples resamples of xs (drawn with replacement,
// each as long as xs), whose 2.5th and 97.5th percentiles are the
// interval. The same seed gives the same interval, so a report can be
// reproduced from its samples. One value has no spread: its interval is
// the value itself.
func Bootstrap(xs []float64, stat func([]float64) float64, seed uint64) Estimate {
	n := len(xs)
	if n == 0 {
		nan := math.NaN()
		return Estimate{Value: nan, Lo: nan, Hi: nan}
	}
	est := Estimate{Value: stat(xs), N: n}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	sample := make([]float64, n)
	stats := make([]float64, 0, Resamples)
	for range Resamples {
		for i := range sample {
			sample[i] = xs[rng.IntN(n)]
		}
		if s := stat(sample); !math.IsNaN(s) {
			stats = append(stats, s)
		}
	}
	slices.Sort(stats)
	est.Lo, est.Hi = Quantile(stats, 0.025), Quantile(stats, 0.975)
	return est
}

// Quantile is the q-quantile of sorted xs by linear interpolation between
// the closest ranks (the "type 7" rule of R and NumPy's default).
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := q * float64(n-1)
	i := int(math.Floor(h))
	if i >= n-1 {
		return sorted[n-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// Paired applies f to the values of each round that both a and b have
// (a[i] and b[i] are round i; NaN means the round did not measure it) and
// returns the results, one per round: the ratios or differences that a
// paired comparison is made of.
func Paired(a, b []float64, f func(x, y float64) float64) []float64 {
	var out []float64
	for i := range min(len(a), len(b)) {
		if v := f(a[i], b[i]); !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, v)
		}
	}
	return out
}

// Ratio is x/y, NaN when either is missing or y is not positive.
func Ratio(x, y float64) float64 {
	if math.IsNaN(x) || math.IsNaN(y) || y <= 0 {
		return math.NaN()
	}
	return x / y
}

// PairedRatio is the median over rounds of a[i]/b[i], with its bootstrap
// interval: how many times b's value a's is, the rounds' drift cancelled.
func PairedRatio(a, b []float64, seed uint64) Estimate {
	return Bootstrap(Paired(a, b, Ratio), Median, seed)
}

func finite(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			out = append(out, x)
		}
	}
	return out
}

// MarshalJSON writes what was not measured (NaN) as null, which JSON has
// and encoding/json would otherwise refuse to write.
func (e Estimate) MarshalJSON() ([]byte, error) {
	return json.Marshal(estimateJSON{JSONNumber(e.Value), JSONNumber(e.Lo), JSONNumber(e.Hi), e.N})
}

// UnmarshalJSON reads what MarshalJSON wrote, null as NaN.
func (e *Estimate) UnmarshalJSON(data []byte) error {
	var w estimateJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*e = Estimate{Value: FromJSON(w.Value), Lo: FromJSON(w.Lo), Hi: FromJSON(w.Hi), N: w.N}
	return nil
}

type estimateJSON struct {
	Value *float64 `json:"value"`
	Lo    *float64 `json:"lo"`
	Hi    *float64 `json:"hi"`
	N     int      `json:"n"`
}

// JSONNumber is x for JSON: nil (null) when it is not a finite number.
func JSONNumber(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// FromJSON reads a JSONNumber back: null is NaN.
func FromJSON(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
