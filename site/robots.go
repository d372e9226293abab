package site

import (
	"strconv"
	"strings"
	"time"
)

// A robotsRule is one Allow or Disallow line of the group for every agent.
type robotsRule struct {
	allow bool
	path  string
}

// Disallow comes first on purpose: RFC 9309 applies the longest matching rule, not the
// first, so /private/open.html stays allowed. A first-match crawler gets it wrong.
var robotsRules = []robotsRule{
	{allow: false, path: "/private/"},
	{allow: true, path: "/private/open.html"},
}

// robotsTxt writes /robots.txt. The group for BadBot comes first and disallows
// everything: a crawler that obeys the first group rather than the one for "*" fetches
// nothing at all.
func robotsTxt(crawlDelay time.Duration) []byte {
	var b strings.Builder
	b.WriteString("# robots.txt of the loopkit book shop (RFC 9309)\n\nUser-agent: BadBot\nDisallow: /\n\nUser-agent: *\n")
	for _, r := range robotsRules {
		if r.allow {
			b.WriteString("Allow: " + r.path + "\n")
		} else {
			b.WriteString("Disallow: " + r.path + "\n")
		}
	}
	if crawlDelay > 0 {
		b.WriteString("Crawl-delay: " + strconv.FormatFloat(crawlDelay.Seconds(), 'f', -1, 64) + "\n")
	}
	return []byte(b.String())
}

// robotsAllow reports whether the group for "*" allows path (escaped, as it goes on the
// wire): the longest matching rule decides, and Allow wins a tie (RFC 9309 §2.2.2).
func robotsAllow(path string) bool {
	longest, allow := -1, true
	for _, r := range robotsRules {
		if !strings.HasPrefix(path, r.path) {
			continue
		}
		if len(r.path) > longest || (len(r.path) == longest && r.allow) {
			longest, allow = len(r.path), r.allow
		}
	}
	return allow
}
