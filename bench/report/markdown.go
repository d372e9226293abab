package report

import (
	"fmt"
	"io"
	"strings"
)

// QuickWarning heads every report of a smoke run.
const QuickWarning = "**A smoke run (-quick): every figure below comes from runs far too short " +
	"to mean anything, and no target is checked. It shows that the machinery works, nothing else.**"

// WriteMarkdown writes a header saying how the numbers were taken, then
// one table per scenario with its notes and comparisons, then the targets.
func WriteMarkdown(w io.Writer, r *Results) error {
	var b strings.Builder
	m := r.Meta
	fmt.Fprintf(&b, "# loopkit benchmarks\n\n")
	if m.Quick {
		fmt.Fprintf(&b, "%s\n\n", QuickWarning)
	}
	fmt.Fprintf(&b, "`%s`  \n", m.Command)
	fmt.Fprintf(&b, "%s, %s/%s, %d CPUs%s, %s; every client at GOMAXPROCS=%d, the site at GOMAXPROCS=%d; %s; "+
		"reactor poller: %s.  \n", m.Date, m.OS, m.Arch, m.CPUs, optional(" ("+m.CPUModel+")", m.CPUModel != ""),
		m.GoVersion, m.GOMAXPROCS, m.SiteProcs, m.Pinning, m.Poller)
	fmt.Fprintf(&b, "Every run is a process of its own; within a round the variants run in a random order "+
		"(seed %d). The invocation took %s.", m.Seed, FormatDuration(m.Seconds))
	if m.LoadBefore != "" {
		fmt.Fprintf(&b, " Load average (1, 5, 15 min) at the start: %s; at the end: %s; the highest 1-minute "+
			"load before any run: %.2f.", m.LoadBefore, m.LoadAfter, m.LoadMax)
	}
	b.WriteString("\n\nMedians over the rounds with their 95 % bootstrap interval in brackets; ratios are " +
		"paired within a round (each round's ratio, then their median and interval).\n")
	for i := range r.Scenarios {
		writeScenario(&b, m, &r.Scenarios[i])
	}
	if !m.Quick {
		writeTargets(&b, r.Targets)
	}
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
	if s.Rounds > 0 {
		fmt.Fprintf(b, "%s of every variant in every case.\n\n", plural(s.Rounds, "round"))
	}
	header := []string{"case", "variant"}
	for _, c := range s.Columns {
		header = append(header, c.Header)
		if c.Ratio && s.Reference != "" {
			header = append(header, "× "+m.Short(s.Reference))
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
				cells = append(cells, FormatSummary(row.Metrics[col.Metric], col.Digits, col.CI))
				if col.Ratio && s.Reference != "" {
					e, ok := row.Ratios[col.Metric]
					cells = append(cells, optional(FormatEstimate(e, 2, "×"), ok))
				}
			}
			if s.CheckHeader != "" {
				cells = append(cells, row.Check)
			}
			writeRow(b, cells)
		}
	}
	writeNotes(b, s.Notes)
	writeComparisons(b, s.Comparisons)
}

// writeComparisons prints the paired estimates the variant groups exist
// to make, under their scenario's table.
func writeComparisons(b *strings.Builder, cs []Comparison) {
	if len(cs) == 0 {
		return
	}
	b.WriteString("\n| case | group | comparison (paired by round) | estimate [95 % interval] |\n| --- | --- | --- | ---: |\n")
	last := ""
	for _, c := range cs {
		label := ""
		if c.Case != last {
			label, last = c.Case, c.Case
		}
		writeRow(b, []string{label, c.Group, c.What, FormatEstimate(c.Value, c.Digits, c.Unit)})
	}
}

// writeTargets sets the measurements against the project's reference
// targets, apart from them and after them: targets are what the project
// aims for on a machine like the one it is built on (2 cores), not a
// property of the code, and a machine of another kind — or a busy one —
// may miss them with nothing wrong.
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
	b.WriteString("\n## Reference targets (for a 2-core machine)\n\n")
	b.WriteString("The project's own aims, set against this run's measurements above. On another machine, or a busy one, a target missed says more about the machine than about the code.\n\n")
	fmt.Fprintf(b, "%d of %d reached in this run.\n\n", met, len(targets))
	writeRow(b, []string{"scenario", "target", "aim", "this run", "reached"})
	writeRow(b, []string{"---", "---", "---:", "---:", "---"})
	for _, t := range targets {
		verdict := "no"
		if t.Met {
			verdict = "yes"
		}
		writeRow(b, []string{t.Scenario, t.What, t.Want, t.Got, verdict})
	}
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

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
