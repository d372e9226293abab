package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteMarkdown writes one table per scenario, with its notes, and a
// header saying how the numbers were taken.
func WriteMarkdown(w io.Writer, r *Results) error {
	var b strings.Builder
	m := r.Meta
	fmt.Fprintf(&b, "# loopkit benchmarks\n\n")
	fmt.Fprintf(&b, "`%s`  \n", m.Command)
	fmt.Fprintf(&b, "%s, %s/%s, %d CPUs%s, %s; clients at GOMAXPROCS=%d, site at GOMAXPROCS=%d; "+
		"median of %d runs (min–max); reactor poller: %s.\n",
		m.Date, m.OS, m.Arch, m.CPUs, optional(" ("+m.CPUModel+")", m.CPUModel != ""), m.GoVersion,
		m.GOMAXPROCS, m.SiteProcs, m.Runs, m.Poller)
	if m.LoadBefore != "" {
		fmt.Fprintf(&b, "Load average (1, 5, 15 min) at the start: %s; at the end: %s.\n", m.LoadBefore, m.LoadAfter)
	}
	if len(m.Baselines) > 0 {
		var names []string
		for _, base := range m.Baselines {
			names = append(names, fmt.Sprintf("%s = %s", m.Short(base), m.Label(base)))
		}
		fmt.Fprintf(&b, "Ratios are this row's median over the baseline's, in the same case of this invocation (%s).\n",
			strings.Join(names, ", "))
	}
	for i := range r.Scenarios {
		writeScenario(&b, m, &r.Scenarios[i])
	}
	writeTargets(&b, r.Targets)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeScenario(b *strings.Builder, m Meta, s *Scenario) {
	fmt.Fprintf(b, "\n## %s — %s\n\n", s.ID, s.Title)
	if s.Skipped != "" {
		fmt.Fprintf(b, "Skipped: %s\n", s.Skipped)
		writeNotes(b, s.Notes)
		return
	}
	header := []string{"case", "variant"}
	for _, c := range s.Columns {
		header = append(header, c.Header)
		if c.Ratio {
			for _, base := range m.Baselines {
				header = append(header, "× "+m.Short(base))
			}
		}
	}
	if s.CheckHeader != "" {
		header = append(header, s.CheckHeader)
	}
	writeRow(b, header)
	align := make([]string, len(header))
	for i := range align {
		align[i] = "---:"
	}
	align[0], align[1] = "---", "---"
	if s.CheckHeader != "" {
		align[len(align)-1] = "---"
	}
	writeRow(b, align)
	for _, c := range s.Cases {
		for i, row := range c.Rows {
			label := ""
			if i == 0 {
				label = c.Label
			}
			cells := []string{label, m.Label(row.Variant)}
			for _, col := range s.Columns {
				cells = append(cells, FormatSummary(row.Metrics[col.Metric], col.Digits, col.Spread))
				if col.Ratio {
					for _, base := range m.Baselines {
						cells = append(cells, ratioCell(&c, row, base, col.Metric))
					}
				}
			}
			if s.CheckHeader != "" {
				cells = append(cells, row.Check)
			}
			writeRow(b, cells)
		}
	}
	writeNotes(b, s.Notes)
}

func writeTargets(b *strings.Builder, targets []Target) {
	if len(targets) == 0 {
		return
	}
	met := 0
	for _, t := range targets {
		if t.Met {
			met++
		}
	}
	fmt.Fprintf(b, "\n## Targets: %d of %d met\n\n", met, len(targets))
	writeRow(b, []string{"scenario", "target", "want", "measured", "met"})
	writeRow(b, []string{"---", "---", "---:", "---:", "---"})
	for _, t := range targets {
		verdict := "no"
		if t.Met {
			verdict = "yes"
		}
		writeRow(b, []string{t.Scenario, t.What, t.Want, t.Got, verdict})
	}
}

func ratioCell(c *Case, row Row, base, metric string) string {
	b := c.Row(base)
	if b == nil {
		return ""
	}
	return FormatRatio(Ratio(row.Metrics[metric], b.Metrics[metric]))
}

func writeRow(b *strings.Builder, cells []string) {
	b.WriteString("| ")
	b.WriteString(strings.Join(cells, " | "))
	b.WriteString(" |\n")
}

func writeNotes(b *strings.Builder, notes []string) {
	if len(notes) == 0 {
		return
	}
	b.WriteString("\n")
	for _, n := range notes {
		fmt.Fprintf(b, "- %s\n", n)
	}
}

func optional(s string, ok bool) string {
	if ok {
		return s
	}
	return ""
}

// FormatSummary prints a median, and with spread its min–max:
// "27,588 (25,101–28,002)". A missing measurement prints as "n/a".
func FormatSummary(s Summary, digits int, spread bool) string {
	if s.N == 0 || math.IsNaN(s.Median) {
		return "n/a"
	}
	out := FormatNumber(s.Median, digits)
	if spread && s.N > 1 {
		out += " (" + FormatNumber(s.Min, digits) + "–" + FormatNumber(s.Max, digits) + ")"
	}
	return out
}

// FormatRatio prints a ratio as "1.52×", or "" if there is none.
func FormatRatio(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return ""
	}
	return strconv.FormatFloat(r, 'f', 2, 64) + "×"
}

// FormatNumber prints x with digits decimals, grouping thousands with
// commas from 10,000 up (so a four-digit year-like count stays as is).
func FormatNumber(x float64, digits int) string {
	s := strconv.FormatFloat(x, 'f', digits, 64)
	if math.Abs(x) < 10000 {
		return s
	}
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var g strings.Builder
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			g.WriteByte(',')
		}
		g.WriteRune(d)
	}
	if hasFrac {
		return sign + g.String() + "." + frac
	}
	return sign + g.String()
}
