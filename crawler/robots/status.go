package robots

// MaxRedirects is how many redirects in a row the crawler follows to reach
// robots.txt (RFC 9309 §2.3.1.2 says at least five).
const MaxRedirects = 5

// Decision is what a robots.txt response means for the crawler.
type Decision int

const (
	// UseBody: the file was fetched (2xx); obey Parse(body, token).
	UseBody Decision = iota
	// FollowRedirect: follow the Location (3xx), up to MaxRedirects in a
	// row, even to another host, and apply what is found there to the
	// original host. A redirect without a usable Location, or one more
	// than MaxRedirects, means the file is unavailable: use AllowAll.
	FollowRedirect
	// Unavailable: there is no file to obey (4xx); use AllowAll.
	Unavailable
	// Unreachable: the server could not answer (5xx, 429, or a network
	// error); use DisallowAll and fetch robots.txt again later.
	Unreachable
)

var decisionNames = [...]string{"use body", "follow redirect", "unavailable: allow all", "unreachable: disallow all"}

func (d Decision) String() string {
	if d < 0 || int(d) >= len(decisionNames) {
		return "robots.Decision(?)"
	}
	return decisionNames[d]
}

// ForStatus says what the HTTP status of a robots.txt response means
// (RFC 9309 §2.3.1):
//
//   - 2xx, success: parse the body and obey it.
//   - 3xx, redirection: follow up to five redirects in a row, across
//     hosts if need be; the crawler follows them, since fetching is its
//     job. More than five, and the file counts as unavailable.
//   - 4xx, unavailable (404, 410, and also 401 and 403): the site has no
//     rules for robots, so everything may be crawled.
//   - 5xx, unreachable: the server is in trouble, and the rules might say
//     anything. Crawl nothing ("complete disallow") and try robots.txt
//     again later. Network errors (DNS failure, refused connection,
//     timeout) mean the same; they have no status, so the crawler applies
//     Unreachable itself.
//
// One exception to the RFC's letter: 429 Too Many Requests is treated as
// unreachable, not unavailable. It means "slow down"; reading it as "no
// rules, crawl everything" would answer the request by crawling harder.
// Google's crawler does the same.
//
// The RFC also allows a crawler to keep using its last good copy while the
// file is unreachable, and after about 30 days unreachable to treat it as
// unavailable. Those are caching decisions; the crawler makes them.
//
// A status outside 200-599 is no valid final response, and counts as
// unreachable.
func ForStatus(status int) Decision {
	switch {
	case status == 429:
		return Unreachable
	case 200 <= status && status <= 299:
		return UseBody
	case 300 <= status && status <= 399:
		return FollowRedirect
	case 400 <= status && status <= 499:
		return Unavailable
	}
	return Unreachable
}
