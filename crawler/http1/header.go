package http1

import (
	"iter"
	"strings"
)

// Field is one header line, as received: the name keeps the server's
// spelling, the value is trimmed of surrounding whitespace.
type Field struct{ Name, Value string }

// Header is a field section in the order it arrived. A slice and not a map:
// order matters for repeated fields (RFC 9110 §5.3), a typical response has
// ten fields, and a linear scan over ten strings is faster than hashing
// them, with one allocation instead of dozens.
type Header []Field

// Get returns the value of the first field called name (case-insensitive),
// or "" when there is none.
func (h Header) Get(name string) string {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Values returns the values of every field called name, in order.
func (h Header) Values(name string) []string {
	var vs []string
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			vs = append(vs, f.Value)
		}
	}
	return vs
}

// Has reports whether a field called name is present, even with an empty
// value: "Transfer-Encoding:" with nothing after it still changes framing.
func (h Header) Has(name string) bool {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}

// elements yields the members of the comma-separated lists in every field
// called name, trimmed, skipping empty ones. RFC 9110 §5.3 says repeated
// fields form one list, and §5.6.1 that recipients must accept empty
// elements ("a, , b").
func (h Header) elements(name string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, f := range h {
			if !strings.EqualFold(f.Name, name) {
				continue
			}
			for rest := f.Value; rest != ""; {
				var elem string
				elem, rest, _ = strings.Cut(rest, ",")
				if elem = trimOWS(elem); elem != "" && !yield(elem) {
					return
				}
			}
		}
	}
}

// isTokenChar[c] says whether c may appear in a token, the grammar of field
// names and coding names (RFC 9110 §5.6.2). Notably absent: space, tab,
// colon, and every control byte.
var isTokenChar = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTokenChar[s[i]] {
			return false
		}
	}
	return true
}

func isOWS(c byte) bool { return c == ' ' || c == '\t' }

// trimOWS removes optional whitespace (SP and HTAB, RFC 9110 §5.6.3) from
// both ends. strings.TrimSpace would also eat bytes HTTP does not count as
// whitespace.
func trimOWS(s string) string {
	for s != "" && isOWS(s[0]) {
		s = s[1:]
	}
	for s != "" && isOWS(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// checkSection rejects the two bytes RFC 9110 §5.5 calls dangerous in a
// field section: NUL anywhere, and CR anywhere but right before LF (a bare
// CR is a line break to some parsers and not to others: the classic
// response-splitting trick). Checking the whole section at once lets the
// per-field code skip a byte-by-byte scan of every value.
func checkSection(s string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return errorf(ErrProtocol, "NUL byte in header")
	}
	for i := strings.IndexByte(s, '\r'); i >= 0; {
		if i+1 == len(s) || s[i+1] != '\n' {
			return errorf(ErrProtocol, "bare CR in header")
		}
		next := strings.IndexByte(s[i+1:], '\r')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return nil
}

// nextLine splits s after its first line, dropping the CRLF or bare LF
// (RFC 9112 §2.2 lets a recipient accept LF alone).
func nextLine(s string) (line, rest string) {
	line, rest, _ = strings.Cut(s, "\n")
	return strings.TrimSuffix(line, "\r"), rest
}

// parseFields parses the field lines of a complete section, up to and
// including the empty line that ends it, into h (empty), at most limit
// of them. The caller has run checkSection over s.
func parseFields(s string, h Header, limit int) (Header, error) {
	for s != "" {
		var line string
		line, s = nextLine(s)
		if line == "" {
			break // the empty line ending the section
		}
		if isOWS(line[0]) {
			// obs-fold: a continuation of the previous field's value.
			// RFC 9112 §5.2 obliges a user agent to replace it with a
			// space rather than reject the response. Before the first
			// field there is nothing to continue, and §2.2 says to
			// reject.
			if len(h) == 0 {
				return nil, errorf(ErrProtocol, "whitespace before the first header field: %s", quote(line))
			}
			last := &h[len(h)-1]
			if more := trimOWS(line); more != "" {
				if last.Value == "" {
					last.Value = more
				} else {
					last.Value += " " + more
				}
			}
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, errorf(ErrProtocol, "malformed header line %s", quote(line))
		}
		// Whitespace before the colon fails here too: RFC 9112 §5.1
		// requires rejecting it, because parsers that trim it and parsers
		// that keep it disagree on which field this is.
		if !isToken(name) {
			return nil, errorf(ErrProtocol, "invalid header name %s", quote(name))
		}
		if len(h) == limit {
			return nil, errorf(ErrHeaderTooLarge, "more than %d header fields", limit)
		}
		h = append(h, Field{Name: name, Value: trimOWS(value)})
	}
	return h, nil
}
