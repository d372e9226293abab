package report

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Chart describes a horizontal bar chart of one metric of one scenario:
// a group of bars per case, a bar per variant, its length the median and
// a whisker over the min–max range.
type Chart struct {
	File     string // name of the .svg file
	Scenario string // scenario ID
	Metric   string
	Title    string
	Unit     string // shown after each value
	Digits   int
	// Better is "higher" or "lower", said under the title.
	Better string
}

// Geometry of the chart, in SVG user units (pixels).
const (
	chartWidth  = 800
	labelWidth  = 230 // variant labels, left of the bars
	valueWidth  = 150 // value labels, right of the longest bar
	barHeight   = 18
	barGap      = 5
	groupGap    = 14
	titleHeight = 52
	groupHeader = 20
)

// palette colours the variants in table order: the two reactor variants
// in blues, the net/http baselines in warm tones.
var palette = []string{"#1f5fa8", "#5b9bd5", "#c0504d", "#e08a3c", "#8c6d31", "#7f7f7f"}

// SVG draws the chart from r. It returns nil if the scenario or metric is
// missing (not run, or skipped).
func (ch Chart) SVG(r *Results) []byte {
	var sc *Scenario
	for i := range r.Scenarios {
		if r.Scenarios[i].ID == ch.Scenario && r.Scenarios[i].Skipped == "" {
			sc = &r.Scenarios[i]
		}
	}
	if sc == nil || len(sc.Cases) == 0 {
		return nil
	}
	top := 0.0
	bars := 0
	for _, c := range sc.Cases {
		for _, row := range c.Rows {
			if s, ok := row.Metrics[ch.Metric]; ok && s.N > 0 {
				top = math.Max(top, s.Max)
				bars++
			}
		}
	}
	if bars == 0 || top <= 0 {
		return nil
	}
	height := titleHeight + len(sc.Cases)*(groupHeader+groupGap) + bars*(barHeight+barGap)
	scale := float64(chartWidth-labelWidth-valueWidth) / top

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		chartWidth, height, chartWidth, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", esc(ch.Title))
	fmt.Fprintf(&b, `<text x="10" y="40" fill="#555">%s is better; bar: median of %d runs, whisker: min–max</text>`+"\n",
		esc(ch.Better), r.Meta.Runs)
	y := titleHeight
	for _, c := range sc.Cases {
		fmt.Fprintf(&b, `<text x="10" y="%d" font-weight="bold">%s</text>`+"\n", y+14, esc(c.Label))
		y += groupHeader
		for _, row := range c.Rows {
			s, ok := row.Metrics[ch.Metric]
			if !ok || s.N == 0 {
				continue
			}
			colour := palette[variantIndex(r.Meta, row.Variant)%len(palette)]
			mid := y + barHeight/2
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n",
				labelWidth-8, mid, esc(r.Meta.Label(row.Variant)))
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n",
				labelWidth, y, s.Median*scale, barHeight, colour)
			if s.N > 1 {
				x0, x1 := labelWidth+s.Min*scale, labelWidth+s.Max*scale
				fmt.Fprintf(&b, `<path d="M%.1f %dH%.1fM%.1f %dV%dM%.1f %dV%d" stroke="#222" fill="none"/>`+"\n",
					x0, mid, x1, x0, mid-4, mid+4, x1, mid-4, mid+4)
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" dominant-baseline="middle">%s %s</text>`+"\n",
				labelWidth+math.Max(s.Median, s.Max)*scale+6, mid, FormatNumber(s.Median, ch.Digits), esc(ch.Unit))
			y += barHeight + barGap
		}
		y += groupGap
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func variantIndex(m Meta, name string) int {
	for i, v := range m.Variants {
		if v.Name == name {
			return i
		}
	}
	return len(m.Variants)
}

func esc(s string) string { return html.EscapeString(s) }
