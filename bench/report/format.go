package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"loopkit/bench/stats"
)

// FormatSummary prints a median, and with ci its interval:
// "27,588 [25,101–28,002]". A missing measurement prints as "n/a".
func FormatSummary(s Summary, digits int, ci bool) string {
	if s.N == 0 || math.IsNaN(s.Median) {
		return "n/a"
	}
	out := FormatNumber(s.Median, digits)
	if ci && s.N > 1 {
		out += " [" + FormatNumber(s.Lo, digits) + "–" + FormatNumber(s.Hi, digits) + "]"
	}
	return out
}

// FormatEstimate prints an estimate with its unit and interval:
// "0.45× [0.43–0.47]", "12 % [8–15]". Nothing measured prints as "n/a".
func FormatEstimate(e stats.Estimate, digits int, unit string) string {
	if e.N == 0 || math.IsNaN(e.Value) {
		return "n/a"
	}
	sep := " "
	if unit == "×" || unit == "" {
		sep = ""
	}
	out := FormatNumber(e.Value, digits) + sep + unit
	if e.N > 1 {
		out += " [" + FormatNumber(e.Lo, digits) + "–" + FormatNumber(e.Hi, digits) + "]"
	}
	return out
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

// FormatDuration prints seconds as "41 min 7 s", "12.3 s".
func FormatDuration(seconds float64) string {
	if seconds < 60 {
		return strconv.FormatFloat(seconds, 'f', 1, 64) + " s"
	}
	s := int(math.Round(seconds))
	if s < 3600 {
		return fmt.Sprintf("%d min %d s", s/60, s%60)
	}
	return fmt.Sprintf("%d h %d min", s/3600, s%3600/60)
}

// Label returns the table label of a variant (its name if unknown).
func (m Meta) Label(name string) string {
	for _, v := range m.Variants {
		if v.Name == name {
			return v.Label
		}
	}
	return name
}

// Short returns the short label of a variant (its name if unknown).
func (m Meta) Short(name string) string {
	for _, v := range m.Variants {
		if v.Name == name && v.Short != "" {
			return v.Short
		}
	}
	return name
}

// Row returns the row of variant in c, or nil.
func (c *Case) Row(variant string) *Row {
	for i := range c.Rows {
		if c.Rows[i].Variant == variant {
			return &c.Rows[i]
		}
	}
	return nil
}
