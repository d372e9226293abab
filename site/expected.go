package site

import (
	"net/url"
	"slices"
	"strings"
)

// Expected returns, sorted, the absolute URLs that a correct strict crawler starting at
// URL() fetches, obeying robots.txt or not. Such a crawler
//
//   - fetches every URL once, comparing URLs after RFC 3986 §6 normalization (lower-case
//     scheme and host, default port dropped, dot segments removed, fragment dropped);
//   - stays on the origin of the root URL (same scheme, host and port);
//   - follows the href of <a> elements, and only in responses whose Content-Type is HTML
//     (text/html or application/xhtml+xml, in any case), decoded in the encoding the
//     response declares (BOM, then header, then meta), resolved against <base href>,
//     skipping comments, scripts and schemes other than http and https;
//   - treats a redirect's Location as one more link (resolved against the request URL),
//     subject to the same rules, robots.txt included;
//   - with robots, skips URLs that the "*" group of /robots.txt disallows (RFC 9309).
//
// Redirect sources and targets, 404s and non-HTML files are all fetched URLs, so they are
// all listed; /robots.txt itself is not. Paths are percent-encoded as on the wire.
func (s *Site) Expected(robots bool) []string {
	root := strings.TrimSuffix(s.URL(), "/")
	var out []string
	for _, t := range s.walk(robots) {
		out = append(out, root+escapeTarget(t))
	}
	slices.Sort(out)
	return out
}

// walk is a breadth-first walk of the graph from "/", in the order a one-worker crawler
// would fetch. It returns on-site targets in piece.target's spelling.
func (s *Site) walk(robots bool) []string {
	seen := map[string]bool{"/": true}
	order := []string{"/"}
	for i := 0; i < len(order); i++ {
		_, targets := s.node(order[i])
		for _, t := range targets {
			if !strings.HasPrefix(t, "/") { // off-site: a strict crawler stays home
				continue
			}
			if seen[t] || (robots && !robotsAllow(escapeTarget(t))) {
				continue
			}
			seen[t] = true
			order = append(order, t)
		}
	}
	return order
}

// escapeTarget percent-encodes the path of a target ("/charset/café.html" becomes
// "/charset/caf%C3%A9.html"), leaving its query as it is.
func escapeTarget(t string) string {
	p, query, hasQuery := strings.Cut(t, "?")
	escaped := (&url.URL{Path: p}).EscapedPath()
	if hasQuery {
		return escaped + "?" + query
	}
	return escaped
}

// Status reports the status code the site answers a GET of rawURL with, as its graph
// says: for every URL that Expected may list, and 404 for any other path of the site.
// It returns 0 for URLs of other origins, for /robots.txt and for the instrument
// endpoints (/delay, /stats...), whose answers depend on their parameters and history.
func (s *Site) Status(rawURL string) int {
	u, err := url.Parse(rawURL)
	root, _ := url.Parse(s.URL())
	if err != nil || root == nil || !strings.EqualFold(u.Scheme, "http") || !sameHost(u, root) {
		return 0
	}
	p := u.Path
	if p == "" {
		p = "/"
	}
	if p == "/robots.txt" || isInstrument(p) {
		return 0
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	status, _ := s.node(p)
	return status
}

// sameHost compares hosts case-insensitively, with port 80 spelled out or not.
func sameHost(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		return "80"
	}
	return strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}
