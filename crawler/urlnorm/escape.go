package urlnorm

import "strings"

// isUnreserved reports whether c is an RFC 3986 §2.3 unreserved character.
// Escaping one of these never changes a URL's meaning, so "%7E" and "~"
// must compare equal, and the decoded form is the canonical one.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// isRawAllowed reports whether c may appear unescaped in a path or query:
// unreserved, sub-delims, ":", "@", "/" and "?" (RFC 3986 §3.3, §3.4).
// Anything else (space, '"', '<', non-ASCII bytes...) must be escaped.
func isRawAllowed(c byte) bool {
	if isUnreserved(c) {
		return true
	}
	return strings.IndexByte("!$&'()*+,;=:@/?", c) >= 0
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func isHex(c byte) bool {
	_, ok := unhex(c)
	return ok
}

const upperHex = "0123456789ABCDEF"

// normalizeEscapes gives every character of a path or query exactly one
// spelling (RFC 3986 §6.2.2.1, §6.2.2.2):
//
//   - "%7e" and "%7E" become "~": unreserved characters are never escaped;
//   - "%3a" becomes "%3A": the remaining escapes use upper-case hex;
//   - a raw byte that must not appear in a URL is escaped ("ü" → "%C3%BC");
//   - a "%" that starts no valid escape is itself escaped ("%zz" → "%25zz").
//
// Escapes of reserved characters such as "%2F" and "%3F" are kept as they
// are: decoding them would change where the path or the query splits.
func normalizeEscapes(s string) string {
	if !needsEscapeWork(s) {
		return s // the common case: no allocation
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				if d := hi<<4 | lo; isUnreserved(d) {
					b.WriteByte(d)
				} else {
					b.WriteByte('%')
					b.WriteByte(upperHex[hi])
					b.WriteByte(upperHex[lo])
				}
				i += 2
				continue
			}
		}
		if c != '%' && isRawAllowed(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upperHex[c>>4])
		b.WriteByte(upperHex[c&15])
	}
	return b.String()
}

// needsEscapeWork is the fast path of normalizeEscapes: true if s holds any
// escape or any byte that must be escaped.
func needsEscapeWork(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '%' || !isRawAllowed(c) {
			return true
		}
	}
	return false
}

// removeDotSegments applies RFC 3986 §5.2.4 to an absolute path:
// "/a/./b/../c" becomes "/a/c". A final "." or ".." leaves a trailing slash
// ("/a/b/.." is "/a/"), and ".." never climbs above the root.
func removeDotSegments(path string) string {
	if !strings.Contains(path, "/.") {
		return path // no segment can start with a dot
	}
	segments := strings.Split(path[1:], "/")
	out := make([]string, 0, len(segments))
	for i, seg := range segments {
		last := i == len(segments)-1
		switch seg {
		case ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, seg)
			continue
		}
		if last {
			out = append(out, "") // "/a/." names the directory "/a/"
		}
	}
	return "/" + strings.Join(out, "/")
}
