package urlnorm

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrNotCrawlable is returned by Resolve for a link the crawler cannot
// follow: another scheme (mailto:, javascript:, ftp:, data:, tel:, ...) or
// no host, and by Normalize for an http or https URL without a host. Test
// for it with errors.Is; it is not a malformed-URL error, just a link that
// is not for us.
var ErrNotCrawlable = errors.New("urlnorm: not an http or https URL")

// Resolve resolves ref, a link as written in a page, against base, the
// absolute URL of the page (or of its <base href>), and normalizes the
// result.
//
// It returns an error wrapping ErrNotCrawlable for links with another
// scheme, and the url.Parse error for malformed ones; it never returns a nil
// URL without an error.
//
// As browsers do (WHATWG URL Standard, "basic URL parser"), it first trims
// leading and trailing spaces and control characters and removes tabs and
// newlines anywhere: href=" /a\n/b " is "/a/b".
func Resolve(base *url.URL, ref string) (*url.URL, error) {
	if base == nil || !base.IsAbs() {
		return nil, errors.New("urlnorm: Resolve needs an absolute base URL")
	}
	ref = cleanRef(ref)
	// Refuse other schemes before parsing: a data: URL can be megabytes
	// long, and there is no point parsing what we will throw away.
	if scheme := schemeOf(ref); scheme != "" && scheme != "http" && scheme != "https" {
		return nil, fmt.Errorf("%w: scheme %q", ErrNotCrawlable, scheme)
	}
	r, err := parse(ref)
	if err != nil {
		return nil, err
	}
	u := base.ResolveReference(r)
	if !Crawlable(u) {
		return nil, fmt.Errorf("%w: %q", ErrNotCrawlable, redacted(u))
	}
	return NormalizeURL(u)
}

// cleanRef removes what a browser ignores around and inside an href.
func cleanRef(ref string) string {
	ref = strings.TrimFunc(ref, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(ref, "\t\n\r") {
		ref = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(ref)
	}
	return ref
}

// schemeOf returns the lower-cased scheme of ref, or "" if ref has none
// (RFC 3986 §3.1: a letter, then letters, digits, "+", "-" or ".", then ":").
func schemeOf(ref string) string {
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.ToLower(ref[:i])
		default:
			return ""
		}
	}
	return ""
}
