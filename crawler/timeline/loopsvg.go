package timeline

import (
	"fmt"
	"math"
	"strings"
	"time"
)

const (
	busyColor   = "#4a4a4a"
	asleepColor = "#cfe2f3"
	rampFill    = "#b9dbb2"
	rampStroke  = "#3c8a3c"
)

// wakeColors and wakeClasses go with WakeNames.
var (
	wakeColors  = [NumWakes]string{"#1f77b4", "#ff7f0e", "#9467bd", "#aaaaaa"}
	wakeClasses = [NumWakes]string{"io", "timer", "posted", "none"}
)

// drawLoopLane draws how the loop spent t0..t1, a pixel column at a time:
// dark for the part of it spent in callbacks, light blue above it for the
// part asleep in the wait (white is neither: the loop's own work between
// callbacks, or not running); and a strip on top, coloured by what woke
// the loop, where it woke.
func drawLoopLane(b *strings.Builder, l *LoopLane, t0, t1 time.Duration, x func(time.Duration) float64, y float64) {
	left := x(t0)
	n := max(1, int(math.Round(x(t1)-left)))
	cols := l.columns(t0, t1, n)
	fmt.Fprintf(b, `<g class="looplane" data-loop="%s"><title>%s</title>`+"\n", esc(l.Name), esc(l.describe()))
	fmt.Fprintf(b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", leftMargin-4, y+loopLaneH-4, esc(l.Name))
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%d" height="%.0f" fill="none" stroke="#ddd"/>`+"\n", left, y, n, loopLaneH)
	const strip = 4.0
	area := loopLaneH - strip
	// Runs of equal columns are one rect each: a few hundred at most.
	runs(len(cols), func(i int) string { return fmt.Sprintf("%.1f/%.1f", cols[i].busy*area, cols[i].asleep*area) },
		func(from, to int) {
			busy, asleep := cols[from].busy*area, cols[from].asleep*area
			if busy >= 0.1 {
				fmt.Fprintf(b, `<rect class="busy" x="%.1f" y="%.1f" width="%d" height="%.1f" fill="%s"/>`+"\n",
					left+float64(from), y+loopLaneH-busy, to-from, busy, busyColor)
			}
			if asleep >= 0.1 {
				fmt.Fprintf(b, `<rect class="asleep" x="%.1f" y="%.1f" width="%d" height="%.1f" fill="%s"/>`+"\n",
					left+float64(from), y+loopLaneH-busy-asleep, to-from, asleep, asleepColor)
			}
		})
	wakeOf := func(i int) string {
		best, most := "", int32(0)
		for w, k := range cols[i].wakes {
			if k > most {
				best, most = wakeClasses[w], k
			}
		}
		return best
	}
	runs(len(cols), wakeOf, func(from, to int) {
		if w := wakeOf(from); w != "" {
			fmt.Fprintf(b, `<rect class="wake %s" x="%.1f" y="%.1f" width="%d" height="%.0f" fill="%s"/>`+"\n",
				w, left+float64(from), y, to-from, strip, wakeColors[wakeIndex(w)])
		}
	})
	b.WriteString("</g>\n")
}

func wakeIndex(class string) int {
	for i, c := range wakeClasses {
		if c == class {
			return i
		}
	}
	return 0
}

// runs calls draw(from, to) for each run of consecutive i in 0..n whose
// key is the same.
func runs(n int, key func(i int) string, draw func(from, to int)) {
	for from := 0; from < n; {
		to := from + 1
		for to < n && key(to) == key(from) {
			to++
		}
		draw(from, to)
		from = to
	}
}

// describe is the loop lane's tooltip.
func (l *LoopLane) describe() string {
	var wakes []string
	for w, k := range l.Wakes {
		if k > 0 {
			wakes = append(wakes, fmt.Sprintf("%d by %s", k, WakeNames[w]))
		}
	}
	woke := "it never slept"
	if len(wakes) > 0 {
		woke = "it was woken " + strings.Join(wakes, ", ")
	}
	return fmt.Sprintf("%s: %d turns over %v; busy in callbacks %v, asleep in the wait %v; %s",
		l.Name, l.Turns, round(l.last-l.first), round(l.Busy), round(l.Asleep), woke)
}

// drawHostLane draws a host's requests in flight as steps, and labels
// each new most: the ramp-up.
func drawHostLane(b *strings.Builder, r *ramp, t0 time.Duration, x func(time.Duration) float64, y float64) {
	fmt.Fprintf(b, `<g class="hostlane" data-host="%s"><title>%s</title>`+"\n", esc(r.host), esc(r.describe(t0)))
	fmt.Fprintf(b, `<text x="%.0f" y="%.1f" text-anchor="end" fill="%s">%s</text>`+"\n", leftMargin-4, y+hostLaneH-6, rampStroke, esc(r.host))
	base, scale := y+hostLaneH-2, (hostLaneH-12)/float64(r.peak())
	var path strings.Builder
	fmt.Fprintf(&path, "M%.1f %.1f", x(r.steps[0].at), base)
	for _, s := range r.steps {
		fmt.Fprintf(&path, " H%.1f V%.1f", x(s.at), base-float64(s.n)*scale)
	}
	fmt.Fprintf(b, `<path d="%s Z" fill="%s" stroke="%s" stroke-width="0.7"/>`+"\n", path.String(), rampFill, rampStroke)
	peakX, lastX := x(r.rises[len(r.rises)-1].at), math.Inf(-1)
	for i, l := range r.rises {
		at, isPeak := x(l.at), i == len(r.rises)-1
		if !isPeak && (at-lastX < 12 || peakX-at < 12) {
			continue
		}
		fmt.Fprintf(b, `<text class="rise" x="%.1f" y="%.1f" font-size="9" fill="%s">%d</text>`+"\n", at+1, y+9, rampStroke, l.n)
		lastX = at
	}
	b.WriteString("</g>\n")
}

// legendHeight is the legend's height: a second row for loops and hosts.
func legendHeight(loops, hosts bool) float64 {
	if loops || hosts {
		return 40
	}
	return 20
}

func drawLegend(b *strings.Builder, y float64, loops, hosts bool) {
	b.WriteString(`<g class="legend">` + "\n")
	xPos := leftMargin
	swatch := func(fill, stroke, name string, width float64) {
		fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="12" height="10" fill="%s" stroke="%s"/><text x="%.0f" y="%.0f">%s</text>`+"\n",
			xPos, y, fill, stroke, xPos+16, y+9, name)
		xPos += width
	}
	for _, name := range PhaseNames {
		swatch(phaseColors[name], "none", name, 75)
	}
	fmt.Fprintf(b, `<line x1="%.0f" x2="%.0f" y1="%.0f" y2="%.0f" stroke="#888" stroke-dasharray="3,2"/><text x="%.0f" y="%.0f">waiting its turn</text>`+"\n",
		xPos, xPos+20, y+5, y+5, xPos+24, y+9)
	xPos += 150
	swatch("none", "#000", "robots.txt", 90)
	swatch("none", "#d62728", "retry", 90)
	fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="3" height="10" fill="#d62728"/><text x="%.0f" y="%.0f">failed</text>`+"\n",
		xPos, y, xPos+8, y+9)
	xPos, y = leftMargin, y+20
	if loops {
		swatch(busyColor, "none", "loop busy", 90)
		swatch(asleepColor, "none", "loop asleep", 100)
		fmt.Fprintf(b, `<text x="%.0f" y="%.0f">woken by:</text>`+"\n", xPos, y+9)
		xPos += 60
		for w, name := range WakeNames {
			swatch(wakeColors[w], "none", name, 25+6*float64(len(name)))
		}
		xPos += 20
	}
	if hosts {
		swatch(rampFill, rampStroke, "requests in flight to a host (numbers: each new most)", 300)
	}
	b.WriteString("</g>\n")
}
