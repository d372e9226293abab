package report

import (
	"encoding/json"
	"math"

	"loopkit/bench/stats"
)

// Summary is a metric over the rounds: the median with its 95 %
// bootstrap interval, and the range.
type Summary struct {
	Median float64 `json:"median"`
	Lo     float64 `json:"lo"` // the interval of the median
	Hi     float64 `json:"hi"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	N      int     `json:"n"`
}

// Summarize returns the median of values with its interval, and their
// minimum and maximum. NaNs (a metric a run could not measure) are left
// out; with nothing left the summary is all NaN, and prints as "n/a".
func Summarize(values []float64) Summary {
	e := stats.MedianCI(values, 1)
	s := Summary{Median: e.Value, Lo: e.Lo, Hi: e.Hi, N: e.N, Min: math.NaN(), Max: math.NaN()}
	for _, x := range values {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		if math.IsNaN(s.Min) || x < s.Min {
			s.Min = x
		}
		if math.IsNaN(s.Max) || x > s.Max {
			s.Max = x
		}
	}
	return s
}

// MarshalJSON writes a missing measurement (NaN) as null, which JSON has
// and encoding/json would otherwise refuse to write.
func (s Summary) MarshalJSON() ([]byte, error) {
	return json.Marshal(summaryJSON{num(s.Median), num(s.Lo), num(s.Hi), num(s.Min), num(s.Max), s.N})
}

type summaryJSON struct {
	Median *float64 `json:"median"`
	Lo     *float64 `json:"lo"`
	Hi     *float64 `json:"hi"`
	Min    *float64 `json:"min"`
	Max    *float64 `json:"max"`
	N      int      `json:"n"`
}

// UnmarshalJSON reads what MarshalJSON wrote, null as NaN.
func (s *Summary) UnmarshalJSON(data []byte) error {
	var w summaryJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*s = Summary{Median: val(w.Median), Lo: val(w.Lo), Hi: val(w.Hi), Min: val(w.Min), Max: val(w.Max), N: w.N}
	return nil
}

func num(x float64) *float64 { return stats.JSONNumber(x) }

func val(p *float64) float64 { return stats.FromJSON(p) }
