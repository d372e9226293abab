package urlnorm

import (
	"net/netip"
	"net/url"
	"strings"
)

// Scope decides which URLs belong to the site being crawled.
//
// Strict (the default of the original crawler): a URL is in scope if its
// host is a root's host or that host's "www." twin, so roots
// "example.com" and "www.example.com" each admit both.
//
// Lenient: a URL is in scope if its host has the same registrable domain
// (eTLD+1, by the Public Suffix List: see suffix.go) as a root's host, so
// root "bbc.co.uk" admits "news.bbc.co.uk" but not "evil.co.uk". The
// original crawler kept the last two labels of a host name, and turned
// "bbc.co.uk" into "couk", which admitted every site in the UK.
//
// IP addresses and single-label names such as "localhost" have no
// registrable domain; in both modes they match only themselves.
//
// Host names are compared as NormalizeURL writes them, in their IDNA
// ASCII form: a root "bücher.de" admits "xn--bcher-kva.de", and a host that
// IDNA refuses is in no scope.
//
// Schemes and ports. The scheme does not count: http and https of one
// host are one site. The scheme's default port (80 for http, 443 for
// https) counts as "no port", so a site may move between http and https
// (which it usually does with a redirect) and stay in scope; so does one
// port that speaks both ("http://h:8080" and "https://h:8080"). Any other
// port is a different server that happens to share a name:
// "example.com:8080" is in scope only if a root names that host (or
// domain, when lenient) with that port.
//
// A Scope is read-only after NewScope, so it may be shared.
type Scope struct {
	lenient bool
	sites   map[site]struct{}
}

// site is what a Scope compares: a host name (strict) or a registrable
// domain (lenient), and a port, "" for the scheme's default.
type site struct {
	name, port string
}

// NewScope returns the scope of a crawl that starts at roots. Roots that
// are not crawlable (see [Crawlable]) are skipped.
func NewScope(roots []*url.URL, lenient bool) *Scope {
	s := &Scope{lenient: lenient, sites: make(map[site]struct{})}
	for _, r := range roots {
		if !Crawlable(r) {
			continue
		}
		k, ok := s.siteOf(r)
		if !ok {
			continue
		}
		s.sites[k] = struct{}{}
		if twin := wwwTwin(k.name); !lenient && twin != "" {
			s.sites[site{twin, k.port}] = struct{}{}
		}
	}
	return s
}

// Allowed reports whether u is crawlable and in scope.
func (s *Scope) Allowed(u *url.URL) bool {
	if !Crawlable(u) {
		return false
	}
	k, ok := s.siteOf(u)
	if !ok {
		return false
	}
	_, ok = s.sites[k]
	return ok
}

// siteOf returns the key under which u is looked up, or false if u's host
// is invalid. It normalizes the host itself, so callers may pass URLs that
// NormalizeURL has not seen: "bücher.de" and "xn--bcher-kva.de" are one
// site, and the Public Suffix List is consulted in Punycode.
func (s *Scope) siteOf(u *url.URL) (site, bool) {
	// normalizeHost drops the scheme's default port, so "" stands for it.
	host, err := normalizeHost(strings.ToLower(u.Scheme), u.Host)
	if err != nil {
		return site{}, false
	}
	name, port, _ := splitHost(host)
	if s.lenient {
		name = registrableDomain(name)
	}
	return site{name, port}, true
}

// wwwTwin returns "example.com" for "www.example.com" and the reverse, or
// "" when a twin makes no sense: for IP addresses, single-label names, and
// when dropping "www." would leave a public suffix ("www.co.uk").
func wwwTwin(name string) string {
	if isIP(name) || !strings.Contains(name, ".") {
		return ""
	}
	if rest, ok := strings.CutPrefix(name, "www."); ok {
		if publicSuffix(rest) == rest {
			return ""
		}
		return rest
	}
	return "www." + name
}

func isIP(name string) bool {
	_, err := netip.ParseAddr(name)
	return err == nil
}
