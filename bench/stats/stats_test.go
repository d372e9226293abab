package stats

import (
	"encoding/json"
	"math"
	"testing"
	"time"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func TestMedianLeavesOutWhatWasNotMeasured(t *testing.T) {
	cases := []struct {
		in   []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{5, math.NaN(), 1}, 3},
		{[]float64{7}, 7},
	}
	for _, c := range cases {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if !math.IsNaN(Median([]float64{math.NaN()})) || !math.IsNaN(Median(nil)) {
		t.Error("the median of nothing is a number")
	}
}

func TestQuantileInterpolatesBetweenRanks(t *testing.T) {
	xs := []float64{10, 20, 30, 40, 50}
	for q, want := range map[float64]float64{0: 10, 0.25: 20, 0.5: 30, 0.1: 14, 1: 50} {
		if got := Quantile(xs, q); !near(got, want, 1e-9) {
			t.Errorf("Quantile(%v) = %v, want %v", q, got, want)
		}
	}
}

// Values that do not vary have an interval of width zero; one value is its
// own interval; no values give NaN, not a zero that looks measured.
func TestBootstrapOfDegenerateInputs(t *testing.T) {
	e := MedianCI([]float64{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, 1)
	if e.Value != 2 || e.Lo != 2 || e.Hi != 2 || e.N != 10 {
		t.Errorf("constant: %+v", e)
	}
	e = MedianCI([]float64{5}, 1)
	if e.Value != 5 || e.Lo != 5 || e.Hi != 5 || e.N != 1 {
		t.Errorf("one value: %+v", e)
	}
	e = MedianCI([]float64{math.NaN()}, 1)
	if e.N != 0 || !math.IsNaN(e.Value) || !math.IsNaN(e.Lo) {
		t.Errorf("nothing: %+v", e)
	}
}

// The bootstrap median of 1..11 can only be one of the values, its
// interval lies inside the data, holds the true median, and is the same
// for the same seed.
func TestBootstrapIntervalOfKnownData(t *testing.T) {
	var xs []float64
	for i := 1; i <= 11; i++ {
		xs = append(xs, float64(i))
	}
	e := MedianCI(xs, 42)
	if e.Value != 6 || e.Lo < 1 || e.Hi > 11 || e.Lo > 6 || e.Hi < 6 {
		t.Fatalf("%+v", e)
	}
	// The median of 11 draws from 1..11 falls in [3, 9] with probability
	// well above 97.5 % at each end (binomial tails), so the percentile
	// interval must lie within it.
	if e.Lo < 3 || e.Hi > 9 {
		t.Errorf("interval [%v, %v] wider than the binomial bound [3, 9]", e.Lo, e.Hi)
	}
	if again := MedianCI(xs, 42); again != e {
		t.Errorf("same seed, different interval: %+v and %+v", e, again)
	}
}

// The bootstrap of the mean of a large sample agrees with the normal
// theory interval, mean ± 1.96 σ/√n, which is known exactly here.
func TestBootstrapOfTheMeanMatchesTheory(t *testing.T) {
	var xs []float64
	for i := range 400 {
		xs = append(xs, float64(i%20)) // 0..19, twenty times: σ² = (20²−1)/12
	}
	mean := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s / float64(len(v))
	}
	e := Bootstrap(xs, mean, 7)
	half := 1.96 * math.Sqrt((400.0-1)/12) / math.Sqrt(400)
	if !near(e.Value, 9.5, 1e-9) || !near(e.Lo, 9.5-half, 0.05) || !near(e.Hi, 9.5+half, 0.05) {
		t.Errorf("got %+v, want 9.5 ± %.3f", e, half)
	}
}

// Ratios are taken within a round, never across: a drift that slows both
// variants in round 2 cancels out.
func TestPairedRatioCancelsARoundsDrift(t *testing.T) {
	a := []float64{10, 20, 10, math.NaN(), 10}
	b := []float64{20, 40, 20, 20, 20}
	r := Paired(a, b, Ratio)
	if len(r) != 4 {
		t.Fatalf("%d pairs, want 4 (round 4 did not measure a)", len(r))
	}
	e := PairedRatio(a, b, 1)
	if e.Value != 0.5 || e.Lo != 0.5 || e.Hi != 0.5 || e.N != 4 {
		t.Errorf("%+v, want exactly 0.5", e)
	}
	// Paired differences, round by round, are what a share of a gap is
	// computed from.
	d := Paired([]float64{1, 4, 9}, []float64{1, 2, 3}, func(x, y float64) float64 { return x - y })
	if len(d) != 3 || d[0] != 0 || d[1] != 2 || d[2] != 6 {
		t.Errorf("differences %v", d)
	}
	if !math.IsNaN(Ratio(1, 0)) || !math.IsNaN(Ratio(1, -2)) {
		t.Error("a ratio over nothing is a number")
	}
}

func TestBucketsHoldTheirValuesWithinOnePart(t *testing.T) {
	for _, v := range []int64{0, 1, 255, 256, 257, 511, 512, 1000, 123_456, 9_999_999, 1 << 40, maxValue} {
		i := bucketOf(v)
		lo, hi := bounds(i)
		if v < lo || v > hi {
			t.Errorf("%d in bucket %d = [%d, %d]", v, i, lo, hi)
		}
		if v >= 256 && float64(hi-lo+1)/float64(lo) > 1.0/128+1e-12 {
			t.Errorf("bucket of %d is %d wide", v, hi-lo+1)
		}
	}
	if bucketOf(maxValue) != numBuckets-1 || bucketOf(maxValue*2) != numBuckets-1 {
		t.Error("the top does not end in the last bucket")
	}
	for i := 1; i < numBuckets; i++ { // contiguous, no gaps, no overlaps
		_, prevHi := bounds(i - 1)
		if lo, _ := bounds(i); lo != prevHi+1 {
			t.Fatalf("bucket %d starts at %d after %d", i, lo, prevHi)
		}
	}
}

// 1..1000 µs, once each: the nearest-rank p50 is 500 µs, p99 990 µs,
// p99.9 999 µs, each read within a bucket's 0.8 % and never below.
func TestPercentilesOfAKnownSet(t *testing.T) {
	var h Histogram
	for i := 1000; i >= 1; i-- {
		h.Record(time.Duration(i) * time.Microsecond)
	}
	for q, want := range map[float64]time.Duration{0.5: 500 * time.Microsecond, 0.99: 990 * time.Microsecond,
		0.999: 999 * time.Microsecond, 1: 1000 * time.Microsecond} {
		got, ok := h.Percentile(q)
		if !ok || got < want || float64(got) > float64(want)*(1+1.0/128) {
			t.Errorf("p%v = %v, want %v (+0.8%%)", q*100, got, want)
		}
	}
	if h.Count() != 1000 || h.Max() != time.Millisecond {
		t.Errorf("count %d, max %v", h.Count(), h.Max())
	}
	var empty Histogram
	if _, ok := empty.Percentile(0.5); ok {
		t.Error("a percentile of nothing")
	}
}

// One slow request in a thousand is the p99.9, not hidden by the p99:
// what a latency tail looks like when it is not coordinated away.
func TestTheTailIsSeen(t *testing.T) {
	var h Histogram
	for range 999 {
		h.Record(100 * time.Microsecond)
	}
	h.Record(50 * time.Millisecond)
	p99, _ := h.Percentile(0.99)
	p999, _ := h.Percentile(0.999)
	p100, _ := h.Percentile(1)
	if p99 > 101*time.Microsecond || p999 > 101*time.Microsecond || p100 != 50*time.Millisecond {
		t.Errorf("p99 %v, p99.9 %v, max %v", p99, p999, p100)
	}
	h.Record(50 * time.Millisecond) // now two in 1001: above the 99.9th rank
	if p999, _ = h.Percentile(0.999); p999 < 50*time.Millisecond {
		t.Errorf("p99.9 with 2 slow in 1001 = %v", p999)
	}
}

func TestHistogramsMergeAndTravelAsJSON(t *testing.T) {
	var a, b Histogram
	a.Record(time.Millisecond)
	b.Record(3 * time.Millisecond)
	b.Record(2 * time.Millisecond)
	data, err := json.Marshal(&b)
	if err != nil {
		t.Fatal(err)
	}
	var c Histogram
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	a.Merge(&c)
	if p50, _ := a.Percentile(0.5); a.Count() != 3 || a.Max() != 3*time.Millisecond || p50 < 2*time.Millisecond || p50 > 2016*time.Microsecond {
		t.Errorf("merged: count %d, max %v, p50 %v", a.Count(), a.Max(), p50)
	}
}
