package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestSummarizeTakesTheMedianAndTheRange(t *testing.T) {
	cases := []struct {
		in   []float64
		want Summary
	}{
		{[]float64{3, 1, 2}, Summary{Median: 2, Min: 1, Max: 3, N: 3}},
		{[]float64{4, 1, 3, 2}, Summary{Median: 2.5, Min: 1, Max: 4, N: 4}}, // even: mean of the middle two
		{[]float64{7}, Summary{Median: 7, Min: 7, Max: 7, N: 1}},
		{[]float64{5, math.NaN(), 1}, Summary{Median: 3, Min: 1, Max: 5, N: 2}}, // NaN: not measured
	}
	for _, c := range cases {
		if got := Summarize(c.in); got != c.want {
			t.Errorf("Summarize(%v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestNothingMeasuredIsNotAZero(t *testing.T) {
	s := Summarize([]float64{math.NaN()})
	if s.N != 0 || !math.IsNaN(s.Median) {
		t.Fatalf("got %+v", s)
	}
	if got := FormatSummary(s, 1, true); got != "n/a" {
		t.Errorf("printed as %q", got)
	}
	if r := Ratio(Summarize([]float64{2}), s); !math.IsNaN(r) {
		t.Errorf("ratio over nothing = %v", r)
	}
	data, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(data), `"median":null`) {
		t.Errorf("JSON %s, %v", data, err)
	}
}

func TestRatioDividesMedians(t *testing.T) {
	a := Summarize([]float64{30, 40, 50})
	b := Summarize([]float64{10, 20, 90})
	if r := Ratio(a, b); r != 2 {
		t.Fatalf("Ratio = %v, want 2", r)
	}
	if got := FormatRatio(Ratio(a, b)); got != "2.00×" {
		t.Errorf("FormatRatio = %q", got)
	}
}

func TestFormatNumberGroupsThousandsFromTenThousand(t *testing.T) {
	cases := map[float64]string{
		9999:      "9999",
		27588.4:   "27,588",
		1234567.8: "1,234,568",
		-98765:    "-98,765",
	}
	for x, want := range cases {
		if got := FormatNumber(x, 0); got != want {
			t.Errorf("FormatNumber(%v) = %q, want %q", x, got, want)
		}
	}
	if got := FormatNumber(12345.678, 2); got != "12,345.68" {
		t.Errorf("with decimals: %q", got)
	}
	if got := FormatSummary(Summarize([]float64{1.5, 2.25, 3}), 2, true); got != "2.25 (1.50–3.00)" {
		t.Errorf("FormatSummary = %q", got)
	}
}
