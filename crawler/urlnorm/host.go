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

// canonicalName returns the one spelling of a host name: an IPv6 literal
// (found between brackets) in its RFC 5952 form; for http and https, a
// domain name in the ASCII form IDNA gives it (see domainToASCII); for
// other schemes, the name lower-cased. A trailing dot goes:
// "example.com." is the fully qualified spelling of "example.com", and more
// than one trailing dot is not a valid name, so gets the same cure.
func canonicalName(name string, bracketed, web bool) (string, error) {
	switch {
	case bracketed:
		if a, err := netip.ParseAddr(name); err == nil {
			return a.String(), nil // lower-case hex, longest zero run as "::"
		}
		return strings.ToLower(name), nil // an IPvFuture literal: leave it be
	case web:
		ascii, err := domainToASCII(name)
		return strings.TrimRight(ascii, "."), err
	}
	return strings.TrimRight(strings.ToLower(name), "."), nil
}

// normalizeHost rewrites a Host field as NormalizeURL describes. Only an
// http or https host can be refused (the error wraps ErrInvalidHost): the
// crawler looks those up in DNS, and knows what a valid one is.
func normalizeHost(scheme, hostport string) (string, error) {
	web := scheme == "http" || scheme == "https"
	name, port, bracketed := splitHost(hostport)
	if !bracketed && !web && strings.Contains(name, ":") {
		// "a::b" without brackets: net/url lets it through, but it is no
		// host we could connect to. Leave it as it is, lower-cased.
		// (For http, domainToASCII refuses the colon.)
		return strings.ToLower(hostport), nil
	}
	name, err := canonicalName(name, bracketed, web)
	if err != nil {
		return "", err
	}
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
		return name + ":" + port, nil
	}
	return name, nil
}
