package urlnorm

import (
	"fmt"
	"net/url"
	"strings"
)

// Normalize parses an absolute URL and returns its normalized form.
// It is [NormalizeURL] for callers that hold a string.
// The URL must have a scheme; a relative reference is an error, because it
// means nothing until it is resolved against a base (see [Resolve]).
func Normalize(raw string) (string, error) {
	u, err := parse(raw)
	if err != nil {
		return "", err
	}
	if u.Scheme == "" {
		return "", fmt.Errorf("urlnorm: %q is a relative reference, not a URL", withoutUserinfo(raw))
	}
	n, err := NormalizeURL(u)
	if err != nil {
		return "", err
	}
	return n.String(), nil
}

// NormalizeURL returns a normalized copy of u; u itself is not modified.
//
// Every step keeps the URL pointing at the same resource (RFC 3986 §6.2.2,
// and §6.2.3 for http and https):
//
//   - http and https URLs lose their userinfo ("http://u:p@host/" is
//     "http://host/"; see below);
//   - the scheme is lower-cased (it is case-insensitive);
//   - an http or https host name is mapped by IDNA to its ASCII form, as
//     browsers do: lower-cased, and Punycode for non-ASCII labels
//     ("BÜCHER.de" and "bücher.de" are "xn--bcher-kva.de"); a name that
//     IDNA refuses, or that holds a character no host may hold, is an
//     error wrapping [ErrInvalidHost]; other schemes' host names are only
//     lower-cased;
//   - the host loses a trailing dot ("example.com." is the same name);
//   - IPv6 literals are written in their canonical form (RFC 5952);
//   - the port is dropped when it is the scheme's default (80, 443), and
//     written without leading zeros otherwise;
//   - escapes of unreserved characters are decoded ("%7E" is "~") and all
//     other escapes get upper-case hex ("%3a" is "%3A"), in path and query;
//     bytes that may not appear raw in a URL (space, non-ASCII) are escaped;
//   - dot segments are removed from the path (RFC 3986 §5.2.4);
//   - an empty path becomes "/" when there is a host;
//   - the fragment is dropped: it never reaches the server.
//
// An http or https URL must come out with a host: one without ("http:x",
// "http:///x", "http://:80/", or "http://./", whose host "." is the root of
// DNS and normalizes to nothing) is an error wrapping [ErrNotCrawlable].
// A hostless "http:///" would otherwise reach the seen set and the
// request line. Other schemes may have no host ("file:///etc").
//
// Userinfo. RFC 3986 §3.2.1 deprecates "user:password" in a URL, and
// RFC 9110 §4.2.4 forbids userinfo in http and https URLs a sender
// generates: it names no part of the resource, only credentials (or a
// phishing disguise, "http://bank.com@evil.example/"). Dropping it makes
// "http://u:p@host/x", "http://@host/x" and "http://host/x" one URL for the
// seen set, the scope and the robots cache, and keeps secrets out of
// everything the crawler writes. Other schemes keep it: "ftp://alice@host/"
// names alice's files, and the crawler neither fetches nor writes them.
//
// Escapes of reserved characters are kept: "/a%2Fb" and "/a/b" are
// different paths, and so are "?q=%3F" and "?q=?" in general.
// The query is otherwise left alone (an empty "?" stays), since a server may
// tell "?a=1&b=2" from "?b=2&a=1".
func NormalizeURL(u *url.URL) (*url.URL, error) {
	n := *u // a shallow copy is enough: we only replace string fields
	n.Scheme = strings.ToLower(n.Scheme)
	n.Fragment, n.RawFragment = "", ""
	web := n.Scheme == "http" || n.Scheme == "https"
	if web {
		n.User = nil
	}
	if n.Opaque != "" && !web {
		// "mailto:x@y" and friends: nothing hierarchical to normalize.
		return &n, nil
	}
	host, err := normalizeHost(n.Scheme, n.Host)
	if err != nil {
		return nil, err
	}
	n.Host = host
	if web && n.Hostname() == "" {
		return nil, fmt.Errorf("%w: no host in %q", ErrNotCrawlable, redacted(u))
	}

	// Work on the escaped path. u.Path is decoded, so normalizing it would
	// turn "%2F" into a real slash and change the URL.
	p := normalizeEscapes(u.EscapedPath())
	if strings.HasPrefix(p, "/") {
		// Only an absolute path may lose its dot segments: in a relative
		// reference "../x" means something until it is resolved.
		p = removeDotSegments(p)
		if n.Host == "" && strings.HasPrefix(p, "//") {
			// Without a host, "//x" would read back as host "x". Keep a
			// "/." in front, as the WHATWG URL Standard does.
			p = "/." + p
		}
	}
	if p == "" && n.Host != "" {
		p = "/"
	}
	n.RawPath = p
	n.Path = unescapePath(p)
	n.RawQuery = normalizeEscapes(n.RawQuery)
	return &n, nil
}

// Crawlable reports whether the crawler can fetch u: an absolute http or
// https URL with a host. Everything else (mailto:, ftp:, relative
// references, "http:foo" without "//") is not.
func Crawlable(u *url.URL) bool {
	if u == nil || u.Opaque != "" || u.Host == "" || u.Hostname() == "" {
		return false
	}
	s := strings.ToLower(u.Scheme)
	return s == "http" || s == "https"
}

// unescapePath decodes p, which normalizeEscapes has made valid.
// url.URL keeps the decoded path in Path and the escaped one in RawPath;
// String uses RawPath as long as the two agree, so they must.
func unescapePath(p string) string {
	d, err := url.PathUnescape(p)
	if err != nil {
		return p // unreachable: p has only well-formed escapes
	}
	return d
}

// parse is url.Parse with the userinfo taken out of its error message: a
// parse error tends to end up in a log, and must not take a password there.
func parse(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if e, ok := err.(*url.Error); ok {
		e.URL = withoutUserinfo(e.URL)
	}
	return u, err
}

// withoutUserinfo removes "user:password@" from the authority of raw, a URL
// or reference that may not parse, for use in error messages.
func withoutUserinfo(raw string) string {
	i := strings.Index(raw, "//")
	if i < 0 || (i > 0 && i != len(schemeOf(raw))+1) {
		return raw // no authority: "//" does not follow "scheme:" or start raw
	}
	start := i + 2
	end := len(raw)
	if j := strings.IndexAny(raw[start:], "/?#\\"); j >= 0 {
		end = start + j
	}
	at := strings.LastIndexByte(raw[start:end], '@')
	if at < 0 {
		return raw
	}
	return raw[:start] + raw[start+at+1:]
}

// redacted is u.String() without userinfo, for error messages.
func redacted(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}
