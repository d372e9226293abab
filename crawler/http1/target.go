package http1

import "strings"

// sliceTarget is ParseTarget's fast path, for a URL that is already
// written the way a request needs it: a lower-case scheme and host, a
// port without leading zeros, a path and query with nothing to escape,
// no userinfo, no fragment, no IPv6 literal. Such a URL, the usual case
// in a crawl, is taken apart by slicing: Host, Hostname and RequestURI
// are substrings of raw, and nothing is allocated. The general path
// (url.Parse, then each part rebuilt) costs three or four allocations.
//
// It answers ok only when the general path would give the same Target;
// anything it is unsure of — an upper-case letter, a "%", an "@", a "#"
// — goes the general way. FuzzParseTarget holds it to that.
func sliceTarget(raw string) (t Target, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(raw, "http://"):
		t.Scheme, t.Port, rest = "http", 80, raw[len("http://"):]
	case strings.HasPrefix(raw, "https://"):
		t.Scheme, t.Port, rest = "https", 443, raw[len("https://"):]
	default:
		return t, false
	}
	// The authority runs to the first "/" or "?"; a "#" anywhere, and
	// any byte not allowed below, sends the URL the general way.
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	authority, uri := rest[:end], rest[end:]
	host, port, hasPort := strings.Cut(authority, ":")
	if host == "" || !plainHost(host) {
		return t, false
	}
	t.Hostname, t.Host = host, host
	if hasPort {
		n, ok := plainPort(port)
		if !ok {
			return t, false
		}
		if n != t.Port { // the default port is never written in Host
			t.Port, t.Host = n, authority
		}
	}
	path, query, hasQuery := strings.Cut(uri, "?")
	if !plainPath(path) || hasQuery && !plainQuery(query) {
		return t, false
	}
	switch {
	case path == "" && !hasQuery:
		t.RequestURI = "/" // a constant: no allocation either
	case path == "":
		return t, false // "?q" with no path: the general way adds the "/"
	default:
		t.RequestURI = uri
	}
	return t, true
}

// plainHost: lower-case letters, digits, dots and hyphens only — a name
// or an IPv4 address that needs no lower-casing, no Punycode, no brackets.
func plainHost(h string) bool {
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// plainPort: 1 to 5 digits, no leading zero, 1 to 65535.
func plainPort(p string) (int, bool) {
	if p == "" || len(p) > 5 || p[0] == '0' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if !isDigit(p[i]) {
			return 0, false
		}
		n = n*10 + int(p[i]-'0')
	}
	return n, n <= 65535
}

// plainPath: bytes that url.URL.EscapedPath keeps as they are, without a
// "%" (whose escapes the general path would check): RFC 3986's
// unreserved characters, and the sub-delimiters a path may carry raw.
func plainPath(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte("-_.~/$&+,:;=@", c) >= 0) {
			return false
		}
	}
	return true
}

// plainQuery: a query that escapeQuery leaves as it is, without a "%"
// and without a "#" (a fragment, which the general path would check).
func plainQuery(q string) bool {
	for i := 0; i < len(q); i++ {
		if q[i] == '%' || q[i] == '#' || queryNeedsEscape(q, i) {
			return false
		}
	}
	return true
}
