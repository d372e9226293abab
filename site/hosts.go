package site

import (
	"html"
	"net"
	"strconv"
	"strings"
)

// A site of several hosts (Config.Hosts) is one shop whose pages are shared out among
// servers on consecutive ports, as a real crawl meets many servers. The rule is fixed
// by the pages' numbers, so the same Config always splits the same way:
//
//   - book id lives on host (id-1) mod H, and so do its redirects /old/<id> and /moved/<id>;
//   - every list page of category k lives on host k mod H;
//   - the home page and every hand-written page, file and redirect live on host 0;
//   - every other host has a front page of its own at "/", which links to the
//     categories it holds and to the home page;
//   - every host answers /robots.txt (the same rules everywhere) and the instruments.
//
// Books are shuffled into categories, so most links from a list page or a book lead
// to another host: many book pages are reached only from other hosts, and a crawler
// that keeps to the host it started from misses about half of that host's pages.
//
// With one host, every link stays on it and the site is byte for byte the one-host shop.

// bookHost is the host that serves book id (and its redirects).
func (c *catalogue) bookHost(id int) int { return (id - 1) % c.hosts }

// listHost is the host that serves the list pages of category k.
func (c *catalogue) listHost(k int) int { return k % c.hosts }

// The graph's targets name their host in their spelling: a path on host 0 is written
// as the server sees it ("/about.html"), and a path on host h ≥ 1 behind "//h", a
// scheme-relative URL whose host is the host's number ("//3/about.html"). A one-host
// site then spells its targets exactly as before, and a target is still a string that
// one map can dedupe.

// on spells path, on host h, as a target.
func on(h int, path string) string {
	if h == 0 {
		return path
	}
	return "//" + strconv.Itoa(h) + path
}

// splitTarget undoes on: the host of an on-site target and its path (with the query).
func splitTarget(t string) (h int, path string) {
	rest, ok := strings.CutPrefix(t, "//")
	if !ok {
		return 0, t
	}
	i := strings.IndexByte(rest, '/')
	if i < 0 {
		return 0, t // not a spelling that on writes
	}
	n, ok := parseNumber(rest[:i])
	if !ok {
		return 0, t
	}
	return n, rest[i:]
}

// originPlaceholder, in a hand-written link or a Location, stands for the origin of
// the host that the link's target is on: "http://127.0.0.1:8083". It is only written
// in links that cross to another host; links within a host stay relative.
const originPlaceholder = "{{origin}}"

// origins spells the links of one response. A link to a page on another host is an
// absolute URL made of the host name the client used (so that a site reached as
// "localhost" links to "localhost" too) and that host's port.
type origins struct {
	host string // the Host the client sent, for {{host}} and {{HOST}} (page.go)
	name string // its host name, without port or brackets: "127.0.0.1", "::1"
	attr string // name, escaped for an HTML attribute
	base int    // the port of host 0; host h listens on base+h
	self int    // the host that serves this response
}

// originsFor returns the origins of a request served by host self of a site of
// hosts hosts. addr is host 0's address, the fallback of a request without a Host
// header. A one-host site never links to another host: it skips the parsing.
func originsFor(requestHost, addr string, self, hosts int) origins {
	o := origins{host: requestHost, self: self}
	if o.host == "" {
		o.host = hostAddr(addr, self) // an HTTP/1.0 request without a Host header
	}
	if hosts == 1 {
		return o
	}
	o.base = portOf(addr)
	o.name = o.host
	if name, _, err := net.SplitHostPort(o.host); err == nil {
		o.name = name
	}
	o.name = strings.TrimSuffix(strings.TrimPrefix(o.name, "["), "]")
	// The name is the client's text. net/http's Host check lets a few characters
	// through that HTML cares about ('&', for one): escape them, which is rare
	// enough to allocate for.
	o.attr = o.name
	if strings.ContainsAny(o.name, "&'\"<>") {
		o.attr = html.EscapeString(o.name)
	}
	return o
}

// appendOrigin appends "http://name:port".
func appendOrigin(b []byte, name string, port int) []byte {
	b = append(b, "http://"...)
	if strings.IndexByte(name, ':') >= 0 { // an IPv6 address
		b = append(b, '[')
		b = append(b, name...)
		b = append(b, ']')
	} else {
		b = append(b, name...)
	}
	b = append(b, ':')
	return strconv.AppendInt(b, int64(port), 10)
}

// appendDir appends the start of a link from this response to a page on host to:
// relative when to is this host, else the other host's origin (its name escaped for
// HTML) and the absolute form. The first case, all that a one-host site ever takes,
// is kept small enough for the compiler to inline on the hot render path.
func (o *origins) appendDir(b []byte, to int, relative, absolute string) []byte {
	if to == o.self {
		return append(b, relative...)
	}
	return append(appendOrigin(b, o.attr, o.base+to), absolute...)
}

// expand replaces the placeholders in s, a link or a Location leading to target:
// escaped for HTML in a page, as they are in a Location.
func (o *origins) expand(s, target string, forHTML bool) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	host, name := o.host, o.name
	if forHTML {
		host, name = html.EscapeString(host), o.attr
	}
	if strings.Contains(s, originPlaceholder) {
		h, _ := splitTarget(target)
		s = strings.ReplaceAll(s, originPlaceholder, string(appendOrigin(nil, name, o.base+h)))
	}
	return expandHost(s, host)
}

// hostAddr is the address of host h, given host 0's: the same IP, port+h.
func hostAddr(addr string, h int) string {
	if h == 0 {
		return addr
	}
	ip, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return net.JoinHostPort(ip, strconv.Itoa(portOf(addr)+h))
}

// portOf is the port of addr, 0 if it has none.
func portOf(addr string) int {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(port)
	return n
}
