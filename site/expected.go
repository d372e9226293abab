package site

import (
	"hash/maphash"
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
	var out []string
	s.EachExpected(robots, func(u string) { out = append(out, u) })
	slices.Sort(out)
	return out
}

// EachExpected calls fn with each URL that Expected lists, in the order a one-worker
// crawler would fetch them, without keeping them: a site of ten million pages is
// walked in about a gigabyte, where Expected's sorted list takes as much again.
func (s *Site) EachExpected(robots bool, fn func(url string)) {
	roots := s.URLs()
	s.walk(robots, func(t string) {
		h, path := splitTarget(t)
		fn(strings.TrimSuffix(roots[h], "/") + escapeTarget(path))
	})
}

// walk is a breadth-first walk of the graph from every host's "/", in the order a
// one-worker crawler would fetch, telling visit each on-site target in piece.target's
// spelling. It keeps a 128-bit hash of each target it has seen, not the target, and
// only the level it walks and the next: two targets sharing a hash (one chance in
// about 10^24 at ten million) would drop one from the walk, never add one.
func (s *Site) walk(robots bool, visit func(target string)) {
	seed0, seed1 := maphash.MakeSeed(), maphash.MakeSeed()
	seen := map[[2]uint64]struct{}{}
	add := func(t string) bool {
		k := [2]uint64{maphash.String(seed0, t), maphash.String(seed1, t)}
		if _, ok := seen[k]; ok {
			return false
		}
		seen[k] = struct{}{}
		return true
	}
	var level []string
	for h := range s.hosts {
		add(on(h, "/"))
		level = append(level, on(h, "/"))
	}
	for len(level) > 0 {
		var next []string
		for _, t := range level {
			visit(t)
			_, targets := s.node(t)
			for _, t := range targets {
				if !strings.HasPrefix(t, "/") { // off-site: a strict crawler stays home
					continue
				}
				if _, path := splitTarget(t); robots && !robotsAllow(escapeTarget(path)) {
					continue
				}
				if add(t) {
					next = append(next, t)
				}
			}
		}
		level = next
	}
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
