package robots

import "strings"

// canonical rewrites a path, or a rule's pattern, in the one
// percent-encoding both are compared in (RFC 9309 §2.2.2 asks that they be
// "percent-encoded the same way"; crawler/urlnorm uses the same form):
//
//   - an escape of an unreserved character is decoded: "%7E" is "~";
//   - every other escape gets upper-case hex: "%3c" is "%3C";
//   - bytes that may not appear raw in a URL (non-ASCII, space, '"', ...)
//     are escaped: "/ツ" is "/%E3%83%84";
//   - a "%" that starts no escape is escaped itself: "%25".
//
// "*" and "$" mean something in a pattern (§2.2.3), so in a path, where
// they are just characters, they are escaped: a rule matches a literal
// star when it is written "%2A", as the RFC says. In a pattern, a "*" is a
// wildcard (runs of them are one), a final "$" is the end anchor, and any
// other "$" is literal and escaped.
func canonical(s string, pattern bool) string {
	if !pattern && isCanonicalPath(s) {
		return s // the common case: no allocation per Allowed call
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				writeEscape(&b, d)
			}
			i += 2
		case pattern && c == '*':
			if !strings.HasSuffix(b.String(), "*") {
				b.WriteByte('*')
			}
		case pattern && c == '$' && i == len(s)-1:
			b.WriteByte('$')
		case c == '*' || c == '$' || c == '%' || !isRawAllowed(c):
			writeEscape(&b, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isCanonicalPath reports whether canonical would leave path unchanged.
func isCanonicalPath(path string) bool {
	for i := 0; i < len(path); i++ {
		if c := path[i]; c == '*' || c == '$' || c == '%' || !isRawAllowed(c) {
			return false
		}
	}
	return true
}

func writeEscape(b *strings.Builder, c byte) {
	const hex = "0123456789ABCDEF"
	b.WriteByte('%')
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&15])
}

// isUnreserved reports whether c is an RFC 3986 unreserved character,
// which means the same escaped or not.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// isRawAllowed reports whether c may appear unescaped in a path or query
// (RFC 3986 §3.3, §3.4).
func isRawAllowed(c byte) bool {
	return isUnreserved(c) || strings.IndexByte("!$&'()*+,;=:@/?", c) >= 0
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
