package report

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Chart is a horizontal chart of one scenario: a group of rows per case,
// a row per variant. Bars draws a bar per row, its length the median and
// a whisker over the median's 95 % interval; Stacked draws the parts of a
// total end to end (user and system CPU), the whisker over the total's
// interval; Dots marks several metrics of a row on a logarithmic axis
// (latency percentiles, which span orders of magnitude).
type Chart struct {
	File     string // name of the .svg file
	Scenario string // scenario ID
	Kind     ChartKind
	Metric   string // the bar (Bars), the total (Stacked); unused by Dots
	Parts    []Part // the segments (Stacked), the marks (Dots)
	Title    string
	Unit     string // shown after each value
	Digits   int
	// Better is "higher" or "lower", said under the title.
	Better string
	// Also, if set, is a second metric of a Bars row, printed after its
	// value with AlsoUnit: "68.0 MiB, 71 B/URL".
	Also, AlsoUnit string
}

// ChartKind is how a chart draws a row.
type ChartKind int

const (
	Bars ChartKind = iota
	Stacked
	Dots
)

// Part is one metric of a Stacked or Dots chart, with its legend.
type Part struct {
	Metric, Label, Colour string
}

// Geometry of the chart, in SVG user units (pixels).
const (
	chartWidth  = 860
	labelWidth  = 260 // variant labels, left of the bars
	valueWidth  = 150 // value labels, right of the longest bar
	barHeight   = 16
	barGap      = 5
	groupGap    = 12
	titleHeight = 68
	groupHeader = 20
	axisHeight  = 24
)

// palette colours the variants by kind: the loop in blues, loopkit's HTTP
// on goroutines in greens, net/http in warm tones, the floors in greys;
// the real crawler's runs (S7) blue, then red for a run killed.
var palette = map[string][]string{
	"loop":                     {"#1f5fa8", "#5b9bd5"},
	"goroutines, loopkit HTTP": {"#2e7d32", "#66bb6a", "#a5d6a7"},
	"net/http":                 {"#c0504d", "#e08a3c", "#8c6d31"},
	"floor":                    {"#555555", "#999999"},
	"crawler":                  {"#1f5fa8", "#c0504d", "#5b9bd5"},
}

// SVG draws the chart from r. It returns nil if the scenario or its
// metrics are missing (not run, or skipped).
func (ch Chart) SVG(r *Results) []byte {
	sc := r.scenario(ch.Scenario)
	if sc == nil {
		return nil
	}
	rows, lo, hi := ch.extent(sc)
	if rows == 0 || hi <= 0 {
		return nil
	}
	x := ch.scale(lo, hi)
	height := titleHeight + len(sc.Cases)*(groupHeader+groupGap) + rows*(barHeight+barGap)
	if ch.Kind == Dots {
		height += axisHeight
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		chartWidth, height, chartWidth, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", esc(ch.Title))
	fmt.Fprintf(&b, `<text x="10" y="40" fill="#555">%s is better; %s</text>`+"\n", esc(ch.Better), esc(ch.legendText(sc)))
	ch.legend(&b)
	y := titleHeight
	for _, c := range sc.Cases {
		fmt.Fprintf(&b, `<text x="10" y="%d" font-weight="bold">%s</text>`+"\n", y+14, esc(c.Label))
		y += groupHeader
		for _, row := range c.Rows {
			if !ch.has(row) {
				continue
			}
			mid := y + barHeight/2
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n",
				labelWidth-8, mid, esc(r.Meta.Label(row.Variant)))
			ch.drawRow(&b, r.Meta, row, x, y)
			y += barHeight + barGap
		}
		y += groupGap
	}
	if ch.Kind == Dots {
		ch.axis(&b, x, lo, hi, y)
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func (r *Results) scenario(id string) *Scenario {
	for i := range r.Scenarios {
		if s := &r.Scenarios[i]; s.ID == id && s.Skipped == "" && len(s.Cases) > 0 {
			return s
		}
	}
	return nil
}

// has says whether a row has what the chart draws.
func (ch Chart) has(row Row) bool {
	if ch.Kind == Dots || ch.Kind == Stacked {
		for _, p := range ch.Parts {
			if s, ok := row.Metrics[p.Metric]; ok && s.N > 0 {
				return true
			}
		}
		return false
	}
	s, ok := row.Metrics[ch.Metric]
	return ok && s.N > 0
}

// extent counts the rows drawn and finds the range of values to fit.
func (ch Chart) extent(sc *Scenario) (rows int, lo, hi float64) {
	lo = math.Inf(1)
	for _, c := range sc.Cases {
		for _, row := range c.Rows {
			if !ch.has(row) {
				continue
			}
			rows++
			for _, v := range ch.values(row) {
				if v > 0 {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
	}
	return rows, lo, hi
}

// values are the numbers of a row the axis must hold.
func (ch Chart) values(row Row) []float64 {
	var out []float64
	sum := 0.0
	for _, p := range ch.Parts {
		if s := row.Metrics[p.Metric]; s.N > 0 {
			out = append(out, s.Median)
			sum += s.Median
		}
	}
	if ch.Kind == Stacked {
		out = append(out, sum)
	}
	if s, ok := row.Metrics[ch.Metric]; ok && s.N > 0 {
		out = append(out, s.Median, s.Hi)
	}
	return out
}

// scale maps a value to an x coordinate: linear from 0 for bars, from
// the decade below the smallest value to the one above the largest for
// dots.
func (ch Chart) scale(lo, hi float64) func(float64) float64 {
	width := float64(chartWidth - labelWidth - valueWidth)
	if ch.Kind != Dots {
		return func(v float64) float64 { return labelWidth + math.Max(v, 0)*width/hi }
	}
	a, z := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if z == a {
		z++
	}
	return func(v float64) float64 {
		return labelWidth + (math.Log10(math.Max(v, math.Pow(10, a)))-a)*width/(z-a)
	}
}

func (ch Chart) legendText(sc *Scenario) string {
	switch ch.Kind {
	case Dots:
		return fmt.Sprintf("pooled over %s; logarithmic axis", plural(sc.Rounds, "round"))
	case Stacked:
		return fmt.Sprintf("medians of %s; whisker: the total's 95 %% interval", plural(sc.Rounds, "round"))
	}
	if sc.Rounds == 1 {
		return "bar: one run"
	}
	return fmt.Sprintf("bar: median of %s, whisker: its 95 %% interval", plural(sc.Rounds, "round"))
}

// legend names the parts of a Stacked or Dots chart, top right.
func (ch Chart) legend(b *strings.Builder) {
	x := labelWidth
	for _, p := range ch.Parts {
		if ch.Kind == Dots {
			fmt.Fprintf(b, `<circle cx="%d" cy="56" r="5" fill="%s"/>`+"\n", x+5, p.Colour)
		} else {
			fmt.Fprintf(b, `<rect x="%d" y="50" width="12" height="12" fill="%s"/>`+"\n", x, p.Colour)
		}
		fmt.Fprintf(b, `<text x="%d" y="60">%s</text>`+"\n", x+16, esc(p.Label))
		x += 24 + 7*len(p.Label)
	}
}

func (ch Chart) drawRow(b *strings.Builder, m Meta, row Row, x func(float64) float64, y int) {
	mid := y + barHeight/2
	switch ch.Kind {
	case Bars:
		s := row.Metrics[ch.Metric]
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n",
			labelWidth, y, x(s.Median)-labelWidth, barHeight, variantColour(m, row.Variant))
		whisker(b, s, x, mid)
		text := FormatNumber(s.Median, ch.Digits) + " " + ch.Unit
		if also, ok := row.Metrics[ch.Also]; ok && also.N > 0 && !math.IsNaN(also.Median) {
			text += ", " + FormatNumber(also.Median, 0) + " " + ch.AlsoUnit
		}
		fmt.Fprintf(b, `<text x="%.1f" y="%d" dominant-baseline="middle">%s</text>`+"\n",
			math.Max(x(s.Median), x(s.Hi))+6, mid, esc(text))
	case Stacked:
		at, sum := 0.0, 0.0
		for _, p := range ch.Parts {
			s := row.Metrics[p.Metric]
			if s.N == 0 {
				continue
			}
			fmt.Fprintf(b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n",
				x(at), y, x(at+s.Median)-x(at), barHeight, p.Colour)
			at += s.Median
			sum += s.Median
		}
		total := row.Metrics[ch.Metric]
		whisker(b, total, x, mid)
		fmt.Fprintf(b, `<text x="%.1f" y="%d" dominant-baseline="middle">%s %s</text>`+"\n",
			math.Max(x(sum), x(total.Hi))+6, mid, FormatNumber(sum, ch.Digits), esc(ch.Unit))
	case Dots:
		var text []string
		right := 0.0
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#ddd"/>`+"\n", labelWidth, mid, chartWidth-valueWidth, mid)
		for _, p := range ch.Parts {
			s := row.Metrics[p.Metric]
			if s.N == 0 {
				continue
			}
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%d" r="5" fill="%s"/>`+"\n", x(s.Median), mid, p.Colour)
			text = append(text, FormatNumber(s.Median, ch.Digits))
			right = math.Max(right, x(s.Median))
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" dominant-baseline="middle">%s %s</text>`+"\n",
			chartWidth-valueWidth+8, mid, strings.Join(text, " / "), esc(ch.Unit))
	}
}

// whisker draws the interval of s, if it has one.
func whisker(b *strings.Builder, s Summary, x func(float64) float64, mid int) {
	if s.N < 2 || math.IsNaN(s.Lo) {
		return
	}
	x0, x1 := x(s.Lo), x(s.Hi)
	fmt.Fprintf(b, `<path d="M%.1f %dH%.1fM%.1f %dV%dM%.1f %dV%d" stroke="#222" fill="none"/>`+"\n",
		x0, mid, x1, x0, mid-4, mid+4, x1, mid-4, mid+4)
}

// axis draws the decades of a Dots chart's logarithmic axis.
func (ch Chart) axis(b *strings.Builder, x func(float64) float64, lo, hi float64, y int) {
	for d := math.Floor(math.Log10(lo)); d <= math.Ceil(math.Log10(hi)); d++ {
		v := math.Pow(10, d)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#999"/>`+"\n", x(v), titleHeight, x(v), y)
		fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%s %s</text>`+"\n",
			x(v), y+14, FormatNumber(v, 0), esc(ch.Unit))
	}
}

// variantColour picks a variant's colour by its kind and its place among
// the variants of that kind.
func variantColour(m Meta, name string) string {
	kind, i := "", 0
	for _, v := range m.Variants {
		if v.Name == name {
			kind = v.Kind
			break
		}
	}
	for _, v := range m.Variants {
		if v.Name == name {
			break
		}
		if v.Kind == kind {
			i++
		}
	}
	colours := palette[kind]
	if len(colours) == 0 {
		return "#7f7f7f"
	}
	return colours[i%len(colours)]
}

func esc(s string) string { return html.EscapeString(s) }
