package robots

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// MaxSize is how much of a robots.txt file Parse reads: 500 KiB, the
// least RFC 9309 §2.5 allows. A limit protects the crawler from a huge or
// endless file; the rest of the file is ignored.
const MaxSize = 500 << 10

// Parse reads a robots.txt body and returns the rules for the crawler
// whose product token is productToken, such as "loopkit".
//
// The file is a sequence of groups (RFC 9309 §2.1). A group starts with
// one or more User-agent lines and goes on with Allow, Disallow and
// Crawl-delay lines, up to the next User-agent line that follows an Allow
// or a Disallow (a Crawl-delay line does not end the run of User-agent
// lines: RFC 9309 §2.2.4).
// Lines before the first User-agent line belong to no group and are
// ignored, as are lines Parse does not know (Sitemap: among them), lines
// without a colon, and comments from "#" to the end of the line. Field
// names are case-insensitive; blank lines mean nothing. Lines may end in
// LF, CRLF or CR, and a UTF-8 byte order mark is skipped.
//
// Which groups apply (§2.2.1): every group with a User-agent line naming
// our product token, compared case-insensitively, merged into one. Only
// if there is none, every group for "*". Only if there is none of those
// either, nothing is disallowed. A User-agent line names a product token
// by its first run of letters, "-" and "_", so "User-agent: LoopKit/2.0"
// names "loopkit"; productToken is read the same way, so passing the whole
// User-Agent header works too.
//
// Parse never fails: whatever it cannot understand, it ignores, as the RFC
// asks. Only the first MaxSize bytes are read; a line cut by that limit is
// dropped, not read in part.
func Parse(body []byte, productToken string) *Rules {
	ourToken := productTokenOf(productToken)
	var ours, star groupRules
	// The group being read: its records are kept until it ends, because a
	// User-agent line may still join it after a Crawl-delay line.
	var group struct {
		started, hasRules, ours, star bool
		records                       [][2]string
	}
	endGroup := func() {
		for _, r := range group.records {
			if group.ours {
				ours.add(r[0], r[1])
			}
			if group.star {
				star.add(r[0], r[1])
			}
		}
		group.records = group.records[:0]
	}

	for _, line := range lines(limit(body)) {
		key, value, ok := splitLine(line)
		if !ok {
			continue
		}
		switch key {
		case "user-agent":
			if !group.started || group.hasRules {
				// A User-agent line after a rule starts a new group;
				// consecutive ones name the agents of the same group.
				endGroup()
				group.started, group.hasRules, group.ours, group.star = true, false, false, false
			}
			switch agent := productTokenOf(value); {
			case agent == "*":
				group.star, star.matched = true, true
			case agent != "" && strings.EqualFold(agent, ourToken):
				group.ours, ours.matched = true, true
			}
		case "allow", "disallow", "crawl-delay":
			if !group.started {
				continue // a rule before any User-agent line belongs to no one
			}
			// Only Allow and Disallow end a run of User-agent lines:
			// Crawl-delay is not in RFC 9309's grammar, and §2.2.4 says
			// other records must not change how the rules are grouped.
			group.hasRules = group.hasRules || key != "crawl-delay"
			group.records = append(group.records, [2]string{key, value})
		}
	}
	endGroup()
	switch {
	case ours.matched:
		return &ours.Rules
	case star.matched:
		return &star.Rules
	}
	return AllowAll()
}

// groupRules collects the rules of every group that names one agent.
type groupRules struct {
	Rules
	matched bool // a group named the agent, even if it had no rules
}

func (g *groupRules) add(key, value string) {
	switch key {
	case "allow", "disallow":
		if value == "" {
			// "Disallow:" with no path disallows nothing (and an empty
			// Allow allows nothing new): the classic "allow all" file.
			return
		}
		if value[0] != '/' && value[0] != '*' {
			// RFC 9309 patterns start with "/". A site that wrote
			// "Disallow: private/" meant "/private/"; reading it so errs
			// on the side of politeness.
			value = "/" + value
		}
		g.rules = append(g.rules, newRule(key == "allow", canonical(value, true)))
	case "crawl-delay":
		if d, ok := parseDelay(value); ok && (!g.hasDelay || d > g.crawlDelay) {
			g.crawlDelay, g.hasDelay = d, true
		}
	}
}

// limit cuts body to MaxSize bytes, and then to its last complete line,
// and skips a UTF-8 byte order mark.
func limit(body []byte) []byte {
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))
	if len(body) <= MaxSize {
		return body
	}
	body = body[:MaxSize]
	// A cut line could change meaning ("Allow: /a/b" read as "Allow: /a");
	// drop it. If the cut fell right after a line break, nothing is lost.
	if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
		return body[:i+1]
	}
	return nil
}

// lines splits text at LF, CRLF and CR.
func lines(text []byte) []string {
	s := strings.ReplaceAll(string(text), "\r\n", "\n")
	return strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
}

// splitLine returns the lower-cased field name and the value of a line,
// with the comment and surrounding white space removed, and false for a
// line that has no "name: value" (blank, comment only, or no colon).
func splitLine(line string) (key, value string, ok bool) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	key, value, ok = strings.Cut(line, ":")
	if !ok {
		return "", "", false
	}
	return strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value), true
}

// productTokenOf returns the product token a User-agent value names: "*",
// or its leading run of letters, "-" and "_" (RFC 9309 §2.2.1), or "".
func productTokenOf(value string) string {
	value = strings.TrimSpace(value)
	if value == "*" || strings.HasPrefix(value, "* ") || strings.HasPrefix(value, "*\t") {
		return "*"
	}
	end := 0
	for end < len(value) {
		c := value[end]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			break
		}
		end++
	}
	return value[:end]
}

// parseDelay reads a Crawl-delay value: a number of seconds, possibly with
// a decimal fraction ("10", "0.5", "1.25"). Anything else (negative,
// "1e3", "inf", "5s", empty) is invalid. A delay too long for a
// time.Duration saturates rather than wraps around.
func parseDelay(v string) (time.Duration, bool) {
	whole, frac, _ := strings.Cut(v, ".")
	if len(whole)+len(frac) == 0 || !allDigits(whole) || !allDigits(frac) {
		return 0, false
	}
	secs, err := strconv.ParseFloat(v, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false // unreachable: v is digits with at most one dot
	}
	ns := math.Round(secs * float64(time.Second))
	if ns >= math.MaxInt64 {
		return time.Duration(math.MaxInt64), true
	}
	return time.Duration(ns), true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
