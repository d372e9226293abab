package robots

import (
	"strings"
	"testing"
	"time"
)

// TestGroups checks which groups of a file apply to us (RFC 9309 §2.1,
// §2.2.1). Each case asks about two paths, /ours and /star, that the
// files below disallow to different agents.
func TestGroups(t *testing.T) {
	tests := []struct {
		name      string
		robots    string
		token     string
		ours      bool // is /ours allowed?
		star      bool // is /star allowed?
		wantRules string
	}{
		{"our group wins over *", `
User-agent: *
Disallow: /star

User-agent: loopkit
Disallow: /ours
`, "loopkit", false, true, "Disallow: /ours\n"},

		{"* when no group names us", `
User-agent: otherbot
Disallow: /ours

User-agent: *
Disallow: /star
`, "loopkit", true, false, "Disallow: /star\n"},

		{"no group for us nor *: allow all", `
User-agent: otherbot
Disallow: /
`, "loopkit", true, true, ""},

		{"our group without rules still beats *", `
User-agent: *
Disallow: /

User-agent: loopkit
Crawl-delay: 1
`, "loopkit", true, true, "Crawl-delay: 1s\n"},

		// RFC 9309 §2.2.4: Crawl-delay is not a rule of the protocol and
		// must not change the grouping: the two User-agent lines are one
		// group, and its Disallow is ours.
		{"a Crawl-delay line does not end a group", `
User-agent: loopkit
Crawl-delay: 1

User-agent: *
Disallow: /
`, "loopkit", false, false, "Disallow: /\nCrawl-delay: 1s\n"},

		{"user agent is case-insensitive", `
User-agent: LoopKit
Disallow: /ours
`, "loopkit", false, true, "Disallow: /ours\n"},

		{"our token is case-insensitive too", `
User-agent: loopkit
Disallow: /ours
`, "LOOPKIT", false, true, "Disallow: /ours\n"},

		{"user agent line with a version", `
User-agent: loopkit/2.1 (+https://example.com/bot)
Disallow: /ours
`, "loopkit", false, true, "Disallow: /ours\n"},

		{"our token given as a full User-Agent", `
User-agent: loopkit
Disallow: /ours
`, "loopkit/0.1 (+mailto:ops@example.com)", false, true, "Disallow: /ours\n"},

		{"a longer name is another robot", `
User-agent: loopkitplus
Disallow: /ours
User-agent: *
Disallow: /star
`, "loopkit", true, false, "Disallow: /star\n"},

		{"a shorter name is another robot", `
User-agent: loop
Disallow: /ours
`, "loopkit", true, true, ""},

		{"groups naming us are merged", `
User-agent: loopkit
Disallow: /ours

User-agent: *
Disallow: /other

User-agent: loopkit
Disallow: /star
`, "loopkit", false, false, "Disallow: /ours\nDisallow: /star\n"},

		{"* groups are merged", `
User-agent: *
Disallow: /ours
User-agent: otherbot
Disallow: /
User-agent: *
Disallow: /star
`, "loopkit", false, false, "Disallow: /ours\nDisallow: /star\n"},

		{"consecutive user agents share a group", `
User-agent: otherbot
User-agent: loopkit
Disallow: /ours
`, "loopkit", false, true, "Disallow: /ours\n"},

		{"blank lines do not end a group", `
User-agent: loopkit

Disallow: /ours

Disallow: /star
`, "loopkit", false, false, "Disallow: /ours\nDisallow: /star\n"},

		{"a user agent after a rule starts a new group", `
User-agent: loopkit
Disallow: /ours
User-agent: otherbot
Disallow: /star
`, "loopkit", false, true, "Disallow: /ours\n"},

		{"unknown lines do not end the list of agents", `
User-agent: otherbot
Sitemap: https://example.com/sitemap.xml
User-agent: loopkit
Disallow: /ours
`, "loopkit", false, true, "Disallow: /ours\n"},

		{"rules before any user agent are ignored", `
Disallow: /star
User-agent: loopkit
Disallow: /ours
`, "loopkit", false, true, "Disallow: /ours\n"},

		{"field names are case-insensitive", `
USER-AGENT: *
DISALLOW: /ours
disallow: /star
`, "loopkit", false, false, "Disallow: /ours\nDisallow: /star\n"},

		{"comments are stripped", `
# Robots, welcome.
User-agent: * # everyone
Disallow: /ours # but not here
Disallow: #/star
`, "loopkit", false, true, "Disallow: /ours\n"},

		{"lines without a colon are ignored", `
User-agent: *
Disallow /star
Disallow: /ours
`, "loopkit", false, true, "Disallow: /ours\n"},

		{"white space around names and values", "User-agent :  * \n\tDisallow\t:\t/ours\t\n",
			"loopkit", false, true, "Disallow: /ours\n"},

		{"no empty token matches an empty agent", `
User-agent:
Disallow: /ours
`, "", true, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(tt.robots), tt.token)
			if got := r.Allowed("/ours"); got != tt.ours {
				t.Errorf("Allowed(/ours) = %v, want %v", got, tt.ours)
			}
			if got := r.Allowed("/star"); got != tt.star {
				t.Errorf("Allowed(/star) = %v, want %v", got, tt.star)
			}
			if got := r.String(); got != tt.wantRules {
				t.Errorf("rules:\n%s\nwant:\n%s", got, tt.wantRules)
			}
		})
	}
}

func TestLineEndings(t *testing.T) {
	for name, body := range map[string]string{
		"LF":       "User-agent: *\nDisallow: /a\nDisallow: /b\n",
		"CRLF":     "User-agent: *\r\nDisallow: /a\r\nDisallow: /b\r\n",
		"CR":       "User-agent: *\rDisallow: /a\rDisallow: /b\r",
		"mixed":    "User-agent: *\r\nDisallow: /a\rDisallow: /b\n",
		"no final": "User-agent: *\nDisallow: /a\nDisallow: /b",
		"BOM":      "\xEF\xBB\xBFUser-agent: *\nDisallow: /a\nDisallow: /b\n",
	} {
		r := Parse([]byte(body), "loopkit")
		if r.Allowed("/a") || r.Allowed("/b") || !r.Allowed("/c") {
			t.Errorf("%s: got rules %q", name, r.String())
		}
	}
}

func TestSizeLimit(t *testing.T) {
	head := "User-agent: *\nDisallow: /early\n"
	padding := "# " + strings.Repeat("x", 78) + "\n" // 81 bytes of comment
	var b strings.Builder
	b.WriteString(head)
	for b.Len()+len(padding) <= MaxSize-len("Disallow: /edge\n") {
		b.WriteString(padding)
	}
	for b.Len() < MaxSize-len("Disallow: /edge\n") {
		b.WriteString("\n")
	}
	b.WriteString("Disallow: /edge\n") // ends exactly at MaxSize: read
	if b.Len() != MaxSize {
		t.Fatalf("test file is %d bytes, want %d", b.Len(), MaxSize)
	}
	b.WriteString("Disallow: /late\n") // after MaxSize: ignored

	r := Parse([]byte(b.String()), "loopkit")
	if r.Allowed("/early") {
		t.Error("a rule at the start was ignored")
	}
	if r.Allowed("/edge") {
		t.Error("a rule ending exactly at MaxSize was ignored")
	}
	if !r.Allowed("/late") {
		t.Error("a rule after MaxSize was obeyed")
	}
	if !r.Allowed("/edg") {
		t.Errorf("the last whole line lost a byte at the cut; rules:\n%s", r)
	}

	// A file of exactly MaxSize bytes is read whole, even its last line
	// without a line break.
	edge := b.String()[:MaxSize-1]
	if !strings.HasSuffix(edge, "Disallow: /edge") {
		t.Fatalf("test file ends with %q", edge[len(edge)-20:])
	}
	r = Parse([]byte(edge+"e"), "loopkit")
	if r.Allowed("/edgee") {
		t.Errorf("the last line of a file of exactly MaxSize bytes was dropped; rules:\n%s", r)
	}

	// A line cut by the limit is dropped, not read in part: read in part,
	// "Allow: /edge/open" would become "Allow: /edge/o", which is longer
	// than "Disallow: /edge" and would allow /edge/other.
	b.Reset()
	b.WriteString("User-agent: *\nDisallow: /edge\n")
	for b.Len() < MaxSize-len("Allow: /edge/o") {
		b.WriteString("\n")
	}
	b.WriteString("Allow: /edge/open\n")
	r = Parse([]byte(b.String()), "loopkit")
	if r.Allowed("/edge/other") {
		t.Errorf("a line cut at MaxSize was obeyed; rules:\n%s", r)
	}

	// The same with CR line endings: the cut falls after the last CR.
	b.Reset()
	b.WriteString("User-agent: *\rDisallow: /edge\r")
	for b.Len() < MaxSize-len("Allow: /edge/o") {
		b.WriteString("\r")
	}
	b.WriteString("Allow: /edge/open\r")
	r = Parse([]byte(b.String()), "loopkit")
	if r.Allowed("/edge") || r.Allowed("/edge/other") {
		t.Errorf("CR lines cut at MaxSize; rules:\n%s", r)
	}
}

// TestMaxSizeIs500KiB: RFC 9309 §2.5 asks for at least 500 kibibytes, and
// the doc promises exactly that.
func TestMaxSizeIs500KiB(t *testing.T) {
	if MaxSize != 500*1024 {
		t.Errorf("MaxSize = %d, want %d", MaxSize, 500*1024)
	}
}

func TestCrawlDelay(t *testing.T) {
	tests := []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"10", 10 * time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{"1.25", 1250 * time.Millisecond, true},
		{".5", 500 * time.Millisecond, true},
		{"2.", 2 * time.Second, true},
		{"0", 0, true},
		{"0.0000000009", time.Nanosecond, true}, // rounded, not truncated
		{"0.0000000004", 0, true},
		{"99999999999999", time.Duration(1<<63 - 1), true},       // saturates
		{"9223372036.854775808", time.Duration(1<<63 - 1), true}, // exactly 2⁶³ ns: saturates too
		{strings.Repeat("9", 400), time.Duration(1<<63 - 1), true},
		{"", 0, false},
		{".", 0, false},
		{"-1", 0, false},
		{"1e3", 0, false},
		{"inf", 0, false},
		{"5s", 0, false},
		{"1,5", 0, false},
		{"0x10", 0, false},
	}
	for _, tt := range tests {
		r := Parse([]byte("User-agent: *\nCrawl-delay: "+tt.value+"\n"), "loopkit")
		got, ok := r.CrawlDelay()
		if got != tt.want || ok != tt.ok {
			t.Errorf("Crawl-delay: %q gives %v, %v; want %v, %v", tt.value, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCrawlDelayGroups(t *testing.T) {
	tests := []struct {
		name, robots string
		want         time.Duration
		ok           bool
	}{
		{"from our group, not *", "User-agent: *\nDisallow: /a\nCrawl-delay: 9\nUser-agent: loopkit\nCrawl-delay: 2\n", 2 * time.Second, true},
		{"from *", "User-agent: otherbot\nDisallow: /a\nCrawl-delay: 9\nUser-agent: *\nCrawl-delay: 3\n", 3 * time.Second, true},
		// RFC 9309 §2.2.4: a Crawl-delay line is not a rule, so it does not
		// end the run of User-agent lines: otherbot and loopkit share the
		// group, and its Crawl-delay.
		{"a Crawl-delay does not end the group", "User-agent: otherbot\nCrawl-delay: 9\nUser-agent: loopkit\nDisallow: /x\n", 9 * time.Second, true},
		{"merged groups: the longest", "User-agent: loopkit\nCrawl-delay: 1\nUser-agent: loopkit\nCrawl-delay: 4\n", 4 * time.Second, true},
		{"invalid values are ignored", "User-agent: *\nCrawl-delay: soon\nCrawl-delay: 0.25\n", 250 * time.Millisecond, true},
		{"none", "User-agent: *\nDisallow: /x\n", 0, false},
		{"before any group", "Crawl-delay: 5\nUser-agent: *\nDisallow: /x\n", 0, false},
	}
	for _, tt := range tests {
		got, ok := Parse([]byte(tt.robots), "loopkit").CrawlDelay()
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: CrawlDelay() = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
	// And the Disallow after it is ours too.
	if Parse([]byte(tests[2].robots), "loopkit").Allowed("/x") {
		t.Errorf("%s: /x allowed", tests[2].name)
	}
}

func TestProductTokenOf(t *testing.T) {
	tests := map[string]string{
		"loopkit":                       "loopkit",
		"  LoopKit/1.0 (+https://x.y/)": "LoopKit",
		"my_bot-2":                      "my_bot-",
		"zaZA-_x/1":                     "zaZA-_x",
		"*":                             "*",
		"* # all":                       "*",
		"*\tall":                        "*",
		"*x":                            "",
		"*bot":                          "",
		"":                              "",
		"/bot":                          "",
	}
	for in, want := range tests {
		if got := productTokenOf(in); got != want {
			t.Errorf("productTokenOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStringListsAllowAndDisallow: String names each rule's kind, in the
// order of the file, with the patterns in canonical form.
func TestStringListsAllowAndDisallow(t *testing.T) {
	r := Parse([]byte("User-agent: *\nAllow: /a/%7eb\nDisallow: *.gif\nCrawl-delay: 2\nDisallow: /a\n"), "loopkit")
	want := "Allow: /a/~b\nDisallow: *.gif\nDisallow: /a\nCrawl-delay: 2s\n"
	if got := r.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
}
