package timeline

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// The picture's geometry, in SVG pixels.
const (
	plotWidth  = 1100.0
	leftMargin = 110.0
	topMargin  = 40.0
	maxLaneH   = 18.0
	minLaneH   = 2.0
	maxPlotH   = 900.0 // for the connection lanes of every section together
	loopLaneH  = 18.0
	hostLaneH  = 24.0
	headerH    = 22.0 // a section's title line
	sectionGap = 12.0
)

// Chart is a picture of one run, or of several one under the other on
// one time axis. Each section's time starts at its own first request,
// so the same width is the same time in every section: two runs of one
// experiment compare at a glance.
type Chart struct {
	Title    string
	Sections []Section
}

// Section is one run: a lane per loop, a lane per host (its requests in
// flight), then a lane per connection, in the order they were first used.
type Section struct {
	Title string // "" for none
	Loops []*LoopLane
	Bars  []Bar
}

// WriteSVG draws bars, one lane per connection, under title: a Chart of
// one section, without loop lanes.
func WriteSVG(w io.Writer, title string, bars []Bar) error {
	c := Chart{Title: title, Sections: []Section{{Bars: bars}}}
	return c.WriteSVG(w)
}

// WriteSVG draws the chart. It stays legible at a few dozen requests
// (lanes 18 px high, labels in the bars) and useful at thousands (lanes
// shrink to 2 px, the connection lanes of all sections to at most 900 px;
// labels go, tooltips stay). Every section needs a request.
func (c *Chart) WriteSVG(w io.Writer) error {
	if len(c.Sections) == 0 {
		return fmt.Errorf("timeline: nothing to draw")
	}
	var span time.Duration
	conns, loops, hosts := 0, false, false
	for i, s := range c.Sections {
		if len(s.Bars) == 0 {
			return fmt.Errorf("timeline: section %d has no requests to draw", i+1)
		}
		t0, t1 := s.span()
		span = max(span, t1-t0)
		conns += len(laneOrder(s.Bars))
		loops = loops || len(s.Loops) > 0
		r, _ := ramps(s.Bars)
		hosts = hosts || len(r) > 0
	}
	laneH := math.Max(minLaneH, math.Min(maxLaneH, maxPlotH/float64(conns)))
	x := func(t time.Duration) float64 { return leftMargin + plotWidth*float64(t)/float64(span) }

	var body strings.Builder
	y := topMargin
	for _, s := range c.Sections {
		y = s.draw(&body, x, y, laneH)
	}
	var b strings.Builder
	height := y + 30 + legendHeight(loops, hosts)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n",
		leftMargin+plotWidth+20, height)
	fmt.Fprintf(&b, `<text x="%.0f" y="20" font-size="14">%s</text>`+"\n", leftMargin, esc(c.Title))
	drawGrid(&b, span, x, topMargin-6, y)
	b.WriteString(body.String())
	drawAxis(&b, span, x, y)
	drawLegend(&b, y+30, loops, hosts)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// span is the time the section covers: from its first start to its last
// end, never empty.
func (s *Section) span() (t0, t1 time.Duration) {
	t0, t1 = s.Bars[0].Start, s.Bars[0].End()
	for _, bar := range s.Bars {
		t0, t1 = min(t0, bar.Start), max(t1, bar.End())
	}
	if t1 <= t0 {
		t1 = t0 + time.Millisecond
	}
	return t0, t1
}

// draw draws the section from y down, and returns where it ends. x takes
// a time from the section's first request.
func (s *Section) draw(b *strings.Builder, x func(time.Duration) float64, y, laneH float64) float64 {
	t0, t1 := s.span()
	lanes := laneOrder(s.Bars)
	fmt.Fprintf(b, `<g class="section">`+"\n")
	header := fmt.Sprintf("%d requests on %d connections over %v", len(s.Bars), len(lanes), round(t1-t0))
	if s.Title != "" {
		header = s.Title + " — " + header
	}
	fmt.Fprintf(b, `<text x="%.0f" y="%.1f" fill="#333">%s</text>`+"\n", leftMargin, y+14, esc(header))
	y += headerH
	sx := func(t time.Duration) float64 { return x(t - t0) }
	for _, l := range s.Loops {
		drawLoopLane(b, l, t0, t1, sx, y)
		y += loopLaneH + 2
	}
	shown, hidden := ramps(s.Bars)
	for i := range shown {
		drawHostLane(b, &shown[i], t0, sx, y)
		y += hostLaneH
	}
	if hidden > 0 {
		fmt.Fprintf(b, `<text x="%.0f" y="%.1f" fill="#555">and %d more hosts, not drawn</text>`+"\n", leftMargin, y+11, hidden)
		y += 14
	}
	y = drawConnLanes(b, s.Bars, lanes, len(s.Loops) > 1 || manyLoops(s.Bars), sx, t0, y, laneH)
	b.WriteString("</g>\n")
	return y + sectionGap
}

// drawGrid draws a faint line down every section at each tick of the axis.
func drawGrid(b *strings.Builder, span time.Duration, x func(time.Duration) float64, top, bottom float64) {
	step := niceStep(span / 10)
	b.WriteString(`<g class="grid" stroke="#eee">` + "\n")
	for t := time.Duration(0); t <= span; t += step {
		fmt.Fprintf(b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`+"\n", x(t), x(t), top, bottom)
	}
	b.WriteString("</g>\n")
}

// drawAxis draws the time axis with about ten round ticks.
func drawAxis(b *strings.Builder, span time.Duration, x func(time.Duration) float64, y float64) {
	step := niceStep(span / 10)
	fmt.Fprintf(b, `<g class="axis"><line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#000"/>`+"\n",
		leftMargin, leftMargin+plotWidth, y, y)
	for t := time.Duration(0); t <= span; t += step {
		fmt.Fprintf(b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#000"/><text x="%.1f" y="%.1f" text-anchor="middle">%v</text>`+"\n",
			x(t), x(t), y, y+4, x(t), y+16, t)
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
