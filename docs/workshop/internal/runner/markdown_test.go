package runner

import (
	"slices"
	"testing"
)

func TestParseReadme(t *testing.T) {
	r, err := ParseReadme("# 3. timeout — a deadline for any future\n\nGoal, in\ntwo lines.\n\n**Cut from** x.\n\n## The rules\n\n- one\n")
	if err != nil {
		t.Fatal(err)
	}
	want := Readme{Number: 3, Name: "timeout", Title: "a deadline for any future", Summary: "Goal, in\ntwo lines.\n\n**Cut from** x."}
	if r != want {
		t.Fatalf("ParseReadme = %+v, want %+v", r, want)
	}
	for _, bad := range []string{"", "# timeout — no number\n", "# 3 timeout — no dot\n", "3. timeout — not a heading\n"} {
		if _, err := ParseReadme(bad); err == nil {
			t.Errorf("ParseReadme(%q) accepted a bad title line", bad)
		}
	}
}

func TestParseHints(t *testing.T) {
	hints, err := ParseHints("## Hint 1\n\nfirst\n\n## Hint 2\nsecond,\nin two lines\n\n## Hint 3\n\nthird\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"first", "second,\nin two lines", "third"}; !slices.Equal(hints, want) {
		t.Fatalf("ParseHints = %q, want %q", hints, want)
	}
	text := "## Hint 1\none\n## Hint 2\ntwo\n## Hint 3\nthree\n\n## Common wrong answers\n\n- this\n- that\n"
	hints, err = ParseHints(text)
	if want := []string{"one", "two", "three"}; err != nil || !slices.Equal(hints, want) {
		t.Fatalf("ParseHints = %q, %v; want %q: the last hint ends at the next heading", hints, err, want)
	}
	if got := ParseWrongAnswers(text); got != "- this\n- that" {
		t.Fatalf("ParseWrongAnswers = %q", got)
	}
	if got := ParseWrongAnswers("## Hint 1\none\n"); got != "" {
		t.Fatalf("ParseWrongAnswers of a file without them = %q", got)
	}
	for _, bad := range []string{"no heading at all", "## Hint 2\nskips one\n", "## Hint 1\na\n## Hint 3\nc\n"} {
		if _, err := ParseHints(bad); err == nil {
			t.Errorf("ParseHints(%q) accepted misnumbered hints", bad)
		}
	}
}

func TestPlain(t *testing.T) {
	md := "**Cut from** [`loop/timers.go`](../../../loop/timers.go) and [the tutorial](x.md#y).\n```\n1a\\r\\n\n```\nafter"
	want := "Cut from `loop/timers.go` and the tutorial.\n    1a\\r\\n\nafter"
	if got := Plain(md); got != want {
		t.Fatalf("Plain =\n%s\nwant\n%s", got, want)
	}
}
