package runner

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The files the runner reads are small markdown documents with a fixed
// shape, so a few string functions read them; no markdown parser needed.
//
// An exercise's README.md starts "# N. name — title", then the summary
// (the paragraphs up to the first "## " heading). hints/NAME.md is a
// sequence of "## Hint N" sections.

// Readme is what the runner uses of an exercise's README.md.
type Readme struct {
	Number  int
	Name    string
	Title   string
	Summary string // markdown, up to the first "## " heading
}

var titleLine = regexp.MustCompile(`^# (\d+)\. (\S+) — (.+)$`)

// ParseReadme reads the title line and the summary of a README.md.
func ParseReadme(text string) (Readme, error) {
	first, rest, _ := strings.Cut(text, "\n")
	m := titleLine.FindStringSubmatch(first)
	if m == nil {
		return Readme{}, fmt.Errorf("the first line %q is not \"# N. name — title\"", first)
	}
	n, _ := strconv.Atoi(m[1])
	summary, _, _ := strings.Cut(rest, "\n## ")
	return Readme{Number: n, Name: m[2], Title: m[3], Summary: strings.TrimSpace(summary)}, nil
}

var (
	hintHeading = regexp.MustCompile(`(?m)^## Hint (\d+)\s*$`)
	anyHeading  = regexp.MustCompile(`(?m)^## `)
)

// WrongAnswersHeading heads the optional last section of hints/NAME.md:
// the wrong answers learners commonly give, which the runner shows with
// "hint NAME wrong".
const WrongAnswersHeading = "## Common wrong answers"

// ParseHints splits hints/NAME.md into its hints, in order. Hint N must be
// the Nth section, so a missing or misnumbered hint is an error, not a
// hint silently skipped. A hint ends at the next "## " heading of any
// kind.
func ParseHints(text string) ([]string, error) {
	locs := hintHeading.FindAllStringSubmatchIndex(text, -1)
	if len(locs) == 0 {
		return nil, fmt.Errorf("no \"## Hint 1\" heading")
	}
	var hints []string
	for i, loc := range locs {
		if n, _ := strconv.Atoi(text[loc[2]:loc[3]]); n != i+1 {
			return nil, fmt.Errorf("hint %d is headed \"Hint %d\"", i+1, n)
		}
		end := len(text)
		if next := anyHeading.FindStringIndex(text[loc[1]:]); next != nil {
			end = loc[1] + next[0]
		}
		hints = append(hints, strings.TrimSpace(text[loc[1]:end]))
	}
	return hints, nil
}

// ParseWrongAnswers returns the "## Common wrong answers" section of
// hints/NAME.md, without its heading; "" if there is none.
func ParseWrongAnswers(text string) string {
	_, rest, ok := strings.Cut(text, "\n"+WrongAnswersHeading+"\n")
	if !ok {
		return ""
	}
	if next := anyHeading.FindStringIndex(rest); next != nil {
		rest = rest[:next[0]]
	}
	return strings.TrimSpace(rest)
}

var mdLink = regexp.MustCompile(`\[([^\]]+)\]\([^)\s]+\)`)

// Plain makes markdown readable on a terminal: a link shows its text
// only, bold loses its stars, a fenced block loses its fences and is
// indented instead. Code spans keep their backquotes, which read well as
// they are.
func Plain(md string) string {
	var out []string
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			fenced = !fenced
		case fenced:
			out = append(out, "    "+line)
		default:
			line = mdLink.ReplaceAllString(line, "$1")
			out = append(out, strings.ReplaceAll(line, "**", ""))
		}
	}
	return strings.Join(out, "\n")
}
