package urlnorm

import (
	"net/netip"
	"strconv"
	"strings"
)

// defaultPort is the port a scheme implies when a URL names none.
func defaultPort(scheme string) string {
	switch scheme {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// splitHost splits a url.URL Host field ("example.com:8080", "[::1]:80",
// "example.com:") into the host name, without brackets, and the port.
func splitHost(hostport string) (name, port string, bracketed bool) {
	if strings.HasPrefix(hostport, "[") {
		if end := strings.LastIndexByte(hostport, ']'); end > 0 {
			return hostport[1:end], strings.TrimPrefix(hostport[end+1:], ":"), true
		}
	}
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		return hostport[:i], hostport[i+1:], false
	}
	return hostport, "", false
}

// canonicalName lower-cases a host name, drops its trailing dot and writes
// an IPv6 literal (found between brackets) in its RFC 5952 form.
func canonicalName(name string, bracketed bool) string {
	if bracketed {
		if a, err := netip.ParseAddr(name); err == nil {
			return a.String() // lower-case hex, longest zero run as "::"
		}
		return strings.ToLower(name) // an IPvFuture literal: leave it be
	}
	// strings.ToLower also folds non-ASCII letters, so "BÜCHER.de" and
	// "bücher.de" become one name, as IDNA mapping would make them.
	// "example.com." is the fully qualified spelling of "example.com";
	// more than one trailing dot is not a valid name, and gets the same cure.
	return strings.TrimRight(strings.ToLower(name), ".")
}

// normalizeHost rewrites a Host field as NormalizeURL describes.
func normalizeHost(scheme, hostport string) string {
	name, port, bracketed := splitHost(hostport)
	if !bracketed && strings.Contains(name, ":") {
		// "a::b" without brackets: net/url lets it through, but it is no
		// host we could connect to. Leave it as it is, lower-cased.
		return strings.ToLower(hostport)
	}
	name = canonicalName(name, bracketed)
	if strings.HasPrefix(port, "0") {
		if n, err := strconv.Atoi(port); err == nil && n <= 65535 {
			port = strconv.Itoa(n) // "0080" is port 80
		}
	}
	if port == defaultPort(scheme) {
		port = ""
	}
	if bracketed {
		name = "[" + name + "]"
	}
	if port != "" {
		return name + ":" + port
	}
	return name
}
