package robots

import (
	"strings"
	"time"
)

// Rules are the robots.txt rules that apply to one crawler on one host.
// The zero value allows everything. Rules are read-only once built, so they
// may be shared.
type Rules struct {
	rules      []rule
	crawlDelay time.Duration
	hasDelay   bool
}

// AllowAll returns rules that allow every path: what a crawler obeys when
// robots.txt is unavailable (a 4xx status, RFC 9309 §2.3.1.3).
func AllowAll() *Rules { return &Rules{} }

// DisallowAll returns rules that disallow every path but /robots.txt:
// what a crawler obeys when robots.txt is unreachable (a 5xx status or a
// network error, RFC 9309 §2.3.1.4), until it can fetch the file again.
func DisallowAll() *Rules {
	return &Rules{rules: []rule{newRule(false, "/")}}
}

// Allowed reports whether the crawler may fetch pathAndQuery, the path and
// query of a URL as sent in the request line, such as url.URL.RequestURI
// returns ("/a/b?c=d"). An empty string means "/".
//
// Of all rules whose pattern matches, the one with the longest pattern
// wins; between an Allow and a Disallow of the same length, Allow wins; if
// none matches, the path is allowed (RFC 9309 §2.2.2). /robots.txt itself
// is always allowed.
//
// Patterns and the path are compared in one canonical percent-encoding:
// escapes of unreserved characters decoded, the others in upper case,
// non-ASCII bytes escaped. So "/%7Ejoe" and "/~joe" are the same path, and
// so are "/a%3cd" and "/a%3Cd"; but "/a%2Fb" and "/a/b" are not.
//
// Each call tries every rule, so its cost grows with the size of the file;
// MaxSize bounds it.
func (r *Rules) Allowed(pathAndQuery string) bool {
	path := canonical(pathAndQuery, false)
	if path == "" {
		path = "/"
	}
	if path == "/robots.txt" {
		return true
	}
	best, allowed := -1, true
	for i := range r.rules {
		ru := &r.rules[i]
		// A shorter pattern cannot win, nor can an equal Disallow.
		if ru.length < best || ru.length == best && (!ru.allow || allowed) {
			continue
		}
		if ru.matches(path) {
			best, allowed = ru.length, ru.allow
		}
	}
	return allowed
}

// CrawlDelay returns the delay the site asks for between two requests, and
// whether it asks for one. When several groups apply, the longest delay
// wins: a site that wrote two is happier with the slower.
func (r *Rules) CrawlDelay() (time.Duration, bool) {
	return r.crawlDelay, r.hasDelay
}

// String lists the rules in a robots.txt-like form, for logs and tests.
func (r *Rules) String() string {
	var b strings.Builder
	for _, ru := range r.rules {
		if ru.allow {
			b.WriteString("Allow: ")
		} else {
			b.WriteString("Disallow: ")
		}
		b.WriteString(ru.pattern)
		b.WriteByte('\n')
	}
	if r.hasDelay {
		b.WriteString("Crawl-delay: " + r.crawlDelay.String() + "\n")
	}
	return b.String()
}
