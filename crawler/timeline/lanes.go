package timeline

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// phaseColors are the phases' fills; wait is light because it is the
// server's time, not the client's.
var phaseColors = map[string]string{
	"dns": "#8e6cc4", "connect": "#e0892b", "tls": "#d94f8a",
	"write": "#e5c33d", "wait": "#a8c8e8", "read": "#3f9a5a",
}

// connKey names a connection: its number is its client's, and each loop
// has a client of its own.
type connKey struct {
	loop int
	conn uint64
}

func keyOf(b Bar) connKey { return connKey{b.Loop, b.Lane} }

// laneOrder numbers the connections' lanes in the order they were first used.
func laneOrder(bars []Bar) map[connKey]int {
	lanes := map[connKey]int{}
	for _, bar := range sortedByStart(bars) {
		if _, ok := lanes[keyOf(bar)]; !ok {
			lanes[keyOf(bar)] = len(lanes)
		}
	}
	return lanes
}

// manyLoops says the bars came from more than one loop's client.
func manyLoops(bars []Bar) bool {
	return slices.ContainsFunc(bars, func(b Bar) bool { return b.Loop != bars[0].Loop })
}

func sortedByStart(bars []Bar) []Bar {
	return slices.SortedStableFunc(slices.Values(bars), func(a, b Bar) int { return cmp.Compare(a.Start, b.Start) })
}

// drawConnLanes draws a lane per connection from y down, and returns where
// they end. With several loops, a lane's name says which loop's it is.
// t0 is where the section's axis starts: a request queued before it (the
// robots.txt the crawl asked for before its first request went out) has
// its wait drawn from there, not into the lanes' names on the left.
func drawConnLanes(b *strings.Builder, bars []Bar, lanes map[connKey]int, sayLoop bool, x func(time.Duration) float64, t0 time.Duration, y, laneH float64) float64 {
	byLane := make([][]Bar, len(lanes))
	for _, bar := range sortedByStart(bars) {
		byLane[lanes[keyOf(bar)]] = append(byLane[lanes[keyOf(bar)]], bar)
	}
	for i, laneBars := range byLane {
		top := y + laneH*float64(i)
		k := keyOf(laneBars[0])
		fmt.Fprintf(b, `<g class="lane" data-loop="%d" data-conn="%d">`+"\n", k.loop, k.conn)
		if laneH >= 10 {
			name := fmt.Sprintf("conn %d", k.conn)
			if k.conn == 0 {
				name = "no conn"
			}
			if sayLoop {
				name = fmt.Sprintf("loop %d %s", k.loop, name)
			}
			fmt.Fprintf(b, `<text x="%.0f" y="%.1f" text-anchor="end" fill="#555">%s</text>`+"\n", leftMargin-4, top+laneH-4, name)
		}
		free := t0 // when the lane's previous bar ended, or the axis began
		for _, bar := range laneBars {
			drawBar(b, bar, x, top, laneH, free)
			free = max(free, bar.End())
		}
		b.WriteString("</g>\n")
	}
	return y + laneH*float64(len(lanes))
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
