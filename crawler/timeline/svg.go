package timeline

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// The picture's geometry, in SVG pixels.
const (
	plotWidth  = 1100.0
	leftMargin = 70.0
	topMargin  = 40.0
	maxLaneH   = 18.0
	minLaneH   = 2.0
	maxPlotH   = 900.0
)

// phaseColors are the phases' fills; wait is light because it is the
// server's time, not the client's.
var phaseColors = map[string]string{
	"dns": "#8e6cc4", "connect": "#e0892b", "tls": "#d94f8a",
	"write": "#e5c33d", "wait": "#a8c8e8", "read": "#3f9a5a",
}

// WriteSVG draws bars, one lane per connection in the order the lanes were
// first used, under title. It stays legible at a few dozen requests (lanes
// 18 px high, labels in the bars) and useful at thousands (lanes shrink to
// 2 px, the picture to at most 900 px of lanes; labels go, tooltips stay).
func WriteSVG(w io.Writer, title string, bars []Bar) error {
	if len(bars) == 0 {
		return fmt.Errorf("timeline: no requests to draw")
	}
	lanes := laneOrder(bars)
	laneH := math.Max(minLaneH, math.Min(maxLaneH, maxPlotH/float64(len(lanes))))
	t0, t1 := span(bars)
	x := func(t time.Duration) float64 {
		return leftMargin + plotWidth*float64(t-t0)/float64(t1-t0)
	}
	plotH := laneH * float64(len(lanes))
	height := topMargin + plotH + 70
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n",
		leftMargin+plotWidth+20, height)
	fmt.Fprintf(&b, `<text x="%.0f" y="20" font-size="14">%s</text>`+"\n", leftMargin, esc(title))
	fmt.Fprintf(&b, `<text x="%.0f" y="34" fill="#555">%d requests on %d connections over %v</text>`+"\n",
		leftMargin, len(bars), len(lanes), (t1 - t0).Round(time.Millisecond))
	drawAxis(&b, t0, t1, x, topMargin+plotH)
	byLane := make([][]Bar, len(lanes))
	for _, bar := range sortedByStart(bars) {
		byLane[lanes[bar.Lane]] = append(byLane[lanes[bar.Lane]], bar)
	}
	for i, laneBars := range byLane {
		y := topMargin + laneH*float64(i)
		conn := laneBars[0].Lane
		fmt.Fprintf(&b, `<g class="lane" data-conn="%d">`+"\n", conn)
		if laneH >= 10 {
			name := fmt.Sprintf("conn %d", conn)
			if conn == 0 {
				name = "no conn"
			}
			fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end" fill="#555">%s</text>`+"\n", leftMargin-4, y+laneH-4, name)
		}
		var free time.Duration // when the lane's previous bar ended
		for _, bar := range laneBars {
			drawBar(&b, bar, x, y, laneH, free)
			free = max(free, bar.End())
		}
		b.WriteString("</g>\n")
	}
	drawLegend(&b, topMargin+plotH+40)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// laneOrder numbers the lanes in the order they were first used.
func laneOrder(bars []Bar) map[uint64]int {
	lanes := map[uint64]int{}
	for _, bar := range sortedByStart(bars) {
		if _, ok := lanes[bar.Lane]; !ok {
			lanes[bar.Lane] = len(lanes)
		}
	}
	return lanes
}

func sortedByStart(bars []Bar) []Bar {
	return slices.SortedStableFunc(slices.Values(bars), func(a, b Bar) int { return cmp.Compare(a.Start, b.Start) })
}

// span is the time the picture covers: from the first start to the last
// end, never empty.
func span(bars []Bar) (t0, t1 time.Duration) {
	t0, t1 = bars[0].Start, bars[0].End()
	for _, bar := range bars {
		t0, t1 = min(t0, bar.Start), max(t1, bar.End())
	}
	if t1 <= t0 {
		t1 = t0 + time.Millisecond
	}
	return t0, t1
}

// drawBar draws one request: its host wait, its phases, its outline and
// its label.
func drawBar(b *strings.Builder, bar Bar, x func(time.Duration) float64, y, h float64, laneFree time.Duration) {
	kind := "page"
	switch {
	case bar.Robots:
		kind = "robots"
	case bar.Retry:
		kind = "retry"
	}
	fmt.Fprintf(b, `<g class="bar" data-kind="%s" data-failed="%t"><title>%s</title>`+"\n", kind, bar.Failed, esc(bar.Detail))
	// Waiting for the host while the connection was free: the dashed line.
	if from := max(bar.Queued, laneFree); bar.Start > from && x(bar.Start)-x(from) >= 1 {
		fmt.Fprintf(b, `<line class="hostwait" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#888" stroke-dasharray="3,2"/>`+"\n",
			x(from), x(bar.Start), y+h/2, y+h/2)
	}
	from := bar.Start
	for _, p := range bar.Phases {
		fmt.Fprintf(b, `<rect class="phase %s" x="%.1f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/>`+"\n",
			p.Name, x(from), y+0.5, math.Max(0.5, x(p.End)-x(from)), math.Max(1, h-1), phaseColors[p.Name])
		from = p.End
	}
	if bar.Robots || bar.Retry {
		stroke := "#000"
		if bar.Retry {
			stroke = "#d62728"
		}
		fmt.Fprintf(b, `<rect class="outline" x="%.1f" y="%.1f" width="%.2f" height="%.1f" fill="none" stroke="%s"/>`+"\n",
			x(bar.Start), y+0.5, math.Max(0.5, x(bar.End())-x(bar.Start)), math.Max(1, h-1), stroke)
	}
	if bar.Failed {
		fmt.Fprintf(b, `<rect class="failed" x="%.1f" y="%.1f" width="3" height="%.1f" fill="#d62728"/>`+"\n",
			x(bar.End())-1.5, y, h)
	}
	if w := x(bar.End()) - x(bar.Start); h >= 10 && w >= 6*float64(len(bar.Label))+6 {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", x(bar.Start)+3, y+h-4, esc(bar.Label))
	}
	b.WriteString("</g>\n")
}

// drawAxis draws the time axis with about ten round ticks.
func drawAxis(b *strings.Builder, t0, t1 time.Duration, x func(time.Duration) float64, y float64) {
	step := niceStep((t1 - t0) / 10)
	fmt.Fprintf(b, `<g class="axis"><line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#000"/>`+"\n",
		leftMargin, leftMargin+plotWidth, y, y)
	for t := time.Duration(0); t <= t1-t0; t += step {
		fmt.Fprintf(b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#000"/><text x="%.1f" y="%.1f" text-anchor="middle">%v</text>`+"\n",
			x(t0+t), x(t0+t), y, y+4, x(t0+t), y+16, t)
	}
	b.WriteString("</g>\n")
}

// niceStep rounds d up to 1, 2 or 5 times a power of ten.
func niceStep(d time.Duration) time.Duration {
	step := time.Microsecond
	for {
		for _, m := range []time.Duration{1, 2, 5} {
			if m*step >= d {
				return m * step
			}
		}
		step *= 10
	}
}

func drawLegend(b *strings.Builder, y float64) {
	b.WriteString(`<g class="legend">` + "\n")
	xPos := leftMargin
	for _, name := range PhaseNames {
		fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="12" height="10" fill="%s"/><text x="%.0f" y="%.0f">%s</text>`+"\n",
			xPos, y, phaseColors[name], xPos+16, y+9, name)
		xPos += 75
	}
	fmt.Fprintf(b, `<line x1="%.0f" x2="%.0f" y1="%.0f" y2="%.0f" stroke="#888" stroke-dasharray="3,2"/><text x="%.0f" y="%.0f">waiting its turn</text>`+"\n",
		xPos, xPos+20, y+5, y+5, xPos+24, y+9)
	xPos += 150
	for _, k := range []struct{ stroke, name string }{{"#000", "robots.txt"}, {"#d62728", "retry"}} {
		fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="12" height="10" fill="none" stroke="%s"/><text x="%.0f" y="%.0f">%s</text>`+"\n",
			xPos, y, k.stroke, xPos+16, y+9, k.name)
		xPos += 90
	}
	fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="3" height="10" fill="#d62728"/><text x="%.0f" y="%.0f">failed</text>`+"\n",
		xPos, y, xPos+8, y+9)
	b.WriteString("</g>\n")
}

func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
