package urlnorm

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/text/encoding"
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
// scheme or without a host, one wrapping ErrInvalidHost for a host IDNA
// refuses, and the url.Parse error for malformed ones; it never returns a
// nil URL without an error.
//
// An href is read as a browser reads it (WHATWG URL Standard, "basic URL
// parser"), not as RFC 3986 would, because pages are written and tested
// against browsers:
//
//   - leading and trailing spaces and control characters are trimmed, and
//     tabs and newlines removed anywhere: href=" /a\n/b " is "/a/b";
//   - a backslash before the query is a slash, as in every http(s) URL a
//     browser parses: href="\a\b" is "/a/b", href="\\host\x" is
//     "//host/x". In the query it is data, sent as "%5C";
//   - a "%" that starts no escape is a percent sign, sent as "%25":
//     href="/100%" is "/100%25" (url.Parse would refuse the link); valid
//     escapes stay as they are.
func Resolve(base *url.URL, ref string) (*url.URL, error) {
	return ResolveIn(base, ref, nil)
}

// ResolveIn is [Resolve] for a link found in a page whose encoding is
// enc: the query's non-ASCII characters are sent in enc, as browsers send
// them, where Resolve sends UTF-8. On a windows-1252 page, href="?q=é" is
// "?q=%E9"; a character enc cannot represent is sent as the percent-encoded
// HTML reference "%26%23NNN%3B", as browsers do. The path is UTF-8 always.
//
// enc is the URL Standard's "output encoding" of the page: nil means
// UTF-8, and is also what UTF-16 and "replacement" pages must pass, as
// their links are sent in UTF-8. Its encoder must report the characters
// it cannot represent as errors, as the encodings of
// golang.org/x/text/encoding/htmlindex do; those of
// golang.org/x/net/html/charset.Lookup write "&#233;" instead, unescaped,
// which would split the query at the "&". crawler/links.ExtractCharset
// takes care of both from a charset label.
func ResolveIn(base *url.URL, ref string, enc encoding.Encoding) (*url.URL, error) {
	if base == nil || !base.IsAbs() {
		return nil, errors.New("urlnorm: Resolve needs an absolute base URL")
	}
	ref = cleanRef(ref)
	// Refuse other schemes before parsing: a data: URL can be megabytes
	// long, and there is no point parsing what we will throw away.
	scheme := schemeOf(ref)
	if scheme != "" && scheme != "http" && scheme != "https" {
		return nil, fmt.Errorf("%w: scheme %q", ErrNotCrawlable, scheme)
	}
	// What is left is http(s), or relative to base: a "special" URL in the
	// URL Standard's terms, where "\" is "/".
	ref = escapeStrayPercents(encodeQuery(backslashesAsSlashes(ref), enc))
	if scheme == "" {
		ref = pathFirst(ref)
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

// pathFirst makes sure url.Parse reads a reference without a scheme as
// a path. A browser reads "1a:b" or ":x" as a relative path, since no
// scheme starts with a digit or a colon; url.Parse sees a colon in the
// first segment and refuses it. "./" in front changes nothing once
// resolved, and tells url.Parse that a path begins.
func pathFirst(ref string) string {
	end := strings.IndexAny(ref, "/?#")
	if end < 0 {
		end = len(ref)
	}
	if strings.Contains(ref[:end], ":") {
		return "./" + ref
	}
	return ref
}

// cleanRef removes what a browser ignores around and inside an href.
func cleanRef(ref string) string {
	ref = strings.TrimFunc(ref, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(ref, "\t\n\r") {
		ref = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(ref)
	}
	return ref
}

// backslashesAsSlashes turns every "\" before the query or fragment into
// "/". The query keeps its backslashes: a browser sends them escaped.
func backslashesAsSlashes(ref string) string {
	end := strings.IndexAny(ref, "?#")
	if end < 0 {
		end = len(ref)
	}
	if !strings.Contains(ref[:end], `\`) {
		return ref
	}
	return strings.ReplaceAll(ref[:end], `\`, "/") + ref[end:]
}

// escapeStrayPercents writes every "%" not followed by two hex digits as
// "%25", in every part of ref: a browser keeps such a "%" as data and
// sends it escaped, where url.Parse fails on the path, the userinfo and
// the fragment. (In a host, "%" is refused later, as browsers refuse it.)
func escapeStrayPercents(ref string) string {
	var b strings.Builder
	done := 0 // ref[:done] is in b
	for i := strings.IndexByte(ref, '%'); i >= 0; i = nextPercent(ref, i) {
		if i+2 < len(ref) && isHex(ref[i+1]) && isHex(ref[i+2]) {
			continue
		}
		b.WriteString(ref[done : i+1])
		b.WriteString("25")
		done = i + 1
	}
	if done == 0 {
		return ref // the common case: nothing to escape, nothing allocated
	}
	b.WriteString(ref[done:])
	return b.String()
}

// nextPercent returns the index of the first "%" in s after index i, or -1.
func nextPercent(s string, i int) int {
	if j := strings.IndexByte(s[i+1:], '%'); j >= 0 {
		return i + 1 + j
	}
	return -1
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
