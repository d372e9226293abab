package site

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Expected returns, sorted, the absolute URLs that a correct strict crawler starting at
// URLs() fetches, obeying robots.txt or not. Such a crawler
//
//   - fetches every URL once, comparing URLs after RFC 3986 §6 normalization (lower-case
//     scheme and host, default port dropped, dot segments removed, fragment dropped);
//   - stays on the origins of the root URLs (same scheme, host and port): on a site of
//     several hosts, it follows links from one host to another;
//   - follows the href of <a> elements, and only in responses whose Content-Type is HTML
//     (text/html or application/xhtml+xml, in any case), decoded in the encoding the
//     response declares (BOM, then header, then meta), resolved against <base href>,
//     skipping comments, scripts and schemes other than http and https;
//   - treats a redirect's Location as one more link (resolved against the request URL),
//     subject to the same rules, robots.txt included;
//   - with robots, skips URLs that the "*" group of the host's /robots.txt disallows
//     (RFC 9309).
//
// Redirect sources and targets, 404s and non-HTML files are all fetched URLs, so they are
// all listed; the robots.txt files themselves are not. Paths are percent-encoded as on
// the wire. The home page links every other host's root, so a crawler that starts at
// URL() alone, and may go to every host, fetches the same URLs.
func (s *Site) Expected(robots bool) []string {
	roots := s.URLs()
	var out []string
	for _, t := range s.walk(robots) {
		h, path := splitTarget(t)
		out = append(out, strings.TrimSuffix(roots[h], "/")+escapeTarget(path))
	}
	slices.Sort(out)
	return out
}

// walk is a breadth-first walk of the graph from every host's "/", in the order a
// one-worker crawler would fetch. It returns on-site targets in piece.target's spelling.
func (s *Site) walk(robots bool) []string {
	seen := map[string]bool{}
	var order []string
	for h := range s.hosts {
		seen[on(h, "/")] = true
		order = append(order, on(h, "/"))
	}
	for i := 0; i < len(order); i++ {
		_, targets := s.node(order[i])
		for _, t := range targets {
			if !strings.HasPrefix(t, "/") { // off-site: a strict crawler stays home
				continue
			}
			if seen[t] {
				continue
			}
			if _, path := splitTarget(t); robots && !robotsAllow(escapeTarget(path)) {
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
// says: for every URL that Expected may list, and 404 for any other path of any host.
// It returns 0 for URLs of other origins, for /robots.txt and for the instrument
// endpoints (/delay, /stats...), whose answers depend on their parameters and history.
func (s *Site) Status(rawURL string) int {
	u, err := url.Parse(rawURL)
	if err != nil || !strings.EqualFold(u.Scheme, "http") {
		return 0
	}
	h := s.hostOf(u)
	if h < 0 {
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
	status, _ := s.node(on(h, p))
	return status
}

// hostOf is the host that serves u, or -1 if u is on none of them: the same name as
// host 0's, and a port in host 0's range.
func (s *Site) hostOf(u *url.URL) int {
	root, err := url.Parse(s.URL())
	if err != nil || !strings.EqualFold(u.Hostname(), root.Hostname()) {
		return -1
	}
	p, err1 := strconv.Atoi(portOrDefault(u))
	base, err2 := strconv.Atoi(portOrDefault(root))
	if h := p - base; err1 == nil && err2 == nil && 0 <= h && h < s.hosts {
		return h
	}
	return -1
}

// portOrDefault is u's port, with port 80 spelled out or not.
func portOrDefault(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	return "80"
}
