package report

import (
	"encoding/json"
	"math"
	"slices"
)

// Summary is the median of a metric over the runs, with its range.
type Summary struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	N      int     `json:"n"`
}

// Summarize returns the median, minimum and maximum of values. The
// median of an even count is the mean of the two middle values. NaNs
// (a metric a run could not measure) are left out; with nothing left the
// summary is all NaN, and prints as "n/a".
func Summarize(values []float64) Summary {
	v := make([]float64, 0, len(values))
	for _, x := range values {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		nan := math.NaN()
		return Summary{Median: nan, Min: nan, Max: nan}
	}
	slices.Sort(v)
	n := len(v)
	med := v[n/2]
	if n%2 == 0 {
		med = (v[n/2-1] + v[n/2]) / 2
	}
	return Summary{Median: med, Min: v[0], Max: v[n-1], N: n}
}

// Ratio is a's median over b's, NaN if either is missing or b is zero.
func Ratio(a, b Summary) float64 {
	if b.N == 0 || a.N == 0 || b.Median == 0 {
		return math.NaN()
	}
	return a.Median / b.Median
}

// MarshalJSON writes a missing measurement (NaN) as null, which JSON has
// and encoding/json would otherwise refuse to write.
func (s Summary) MarshalJSON() ([]byte, error) {
	num := func(x float64) *float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return &x
	}
	return json.Marshal(struct {
		Median *float64 `json:"median"`
		Min    *float64 `json:"min"`
		Max    *float64 `json:"max"`
		N      int      `json:"n"`
	}{num(s.Median), num(s.Min), num(s.Max), s.N})
}
