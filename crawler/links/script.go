package links

import "bytes"

// The states of a <script>'s text, as the tokenizer's readScript has
// them. A script may hide "</script>" from the tokenizer inside
// "<!--" ... "-->", and there a "<script" begins a part in which
// "</script>" does not end the script but only that part.
const (
	scriptData = iota
	scriptLessThan
	scriptEscapeStart
	scriptEscapeStartDash
	scriptEscaped
	scriptEscapedDash
	scriptEscapedDashDash
	scriptEscapedLessThan
	scriptDoubleEscaped
	scriptDoubleEscapedDash
	scriptDoubleEscapedDashDash
	scriptDoubleEscapedLessThan
)

// skipScript skips a script's text up to its end tag, which run then
// reads. It is the tokenizer's readScript: in each state, one byte
// decides the next state; "again" marks a byte that is read again in
// the next state rather than consumed.
func (s *scanner) skipScript() bool {
	b := s.b
	p := s.i
	state := scriptData
	for {
		if state == scriptData { // the common case: jump to the next '<'
			j := bytes.IndexByte(b[p:], '<')
			if j < 0 {
				return false
			}
			p += j + 1
			state = scriptLessThan
			continue
		}
		if p >= len(b) {
			return false
		}
		c := b[p]
		p++
		switch state {
		case scriptLessThan:
			switch c {
			case '/':
				next, matched, eof := rawEndTag(b, p, "script")
				if eof {
					return false
				}
				if matched {
					s.i = p - 2
					return true
				}
				p = next
				state = scriptData
			case '!':
				state = scriptEscapeStart
			default:
				p-- // again
				state = scriptData
			}
		case scriptEscapeStart, scriptEscapeStartDash:
			switch {
			case c != '-':
				p-- // again
				state = scriptData
			case state == scriptEscapeStart:
				state = scriptEscapeStartDash
			default:
				state = scriptEscapedDashDash
			}
		case scriptEscaped, scriptEscapedDash, scriptEscapedDashDash:
			switch {
			case c == '<':
				state = scriptEscapedLessThan
			case c == '>' && state == scriptEscapedDashDash:
				state = scriptData
			case c == '-' && state == scriptEscaped:
				state = scriptEscapedDash
			case c == '-':
				state = scriptEscapedDashDash
			default:
				state = scriptEscaped
			}
		case scriptEscapedLessThan:
			switch {
			case c == '/':
				next, matched, eof := rawEndTag(b, p, "script")
				if eof {
					return false
				}
				if matched {
					s.i = p - 2
					return true
				}
				p = next
				state = scriptEscaped
			case isLetter(c):
				// "<script" then a space, '/' or '>' begins the double
				// escape; anything else goes back to the escaped text,
				// the byte that did not match read again.
				next, matched, eof := doubleEscapeStart(b, p-1)
				if eof {
					return false
				}
				p = next
				state = scriptEscaped
				if matched {
					state = scriptDoubleEscaped
				}
			default:
				p-- // again
				state = scriptData
			}
		case scriptDoubleEscaped, scriptDoubleEscapedDash, scriptDoubleEscapedDashDash:
			switch {
			case c == '<':
				state = scriptDoubleEscapedLessThan
			case c == '>' && state == scriptDoubleEscapedDashDash:
				state = scriptData
			case c == '-' && state == scriptDoubleEscaped:
				state = scriptDoubleEscapedDash
			case c == '-':
				state = scriptDoubleEscapedDashDash
			default:
				state = scriptDoubleEscaped
			}
		case scriptDoubleEscapedLessThan:
			if c != '/' {
				p-- // again
				state = scriptDoubleEscaped
				break
			}
			next, matched, eof := rawEndTag(b, p, "script")
			if eof {
				return false
			}
			p = next
			state = scriptDoubleEscaped
			if matched {
				state = scriptEscaped
			}
		}
	}
}

// doubleEscapeStart matches "script" (lower or upper case, letter by
// letter, as the tokenizer compares) then a space, '/' or '>', at b[p:].
// On a mismatch, next is the byte that did not match.
func doubleEscapeStart(b []byte, p int) (next int, matched, eof bool) {
	const lower, upper = "script", "SCRIPT"
	for i := range len(lower) {
		if p >= len(b) {
			return p, false, true
		}
		if b[p] != lower[i] && b[p] != upper[i] {
			return p, false, false
		}
		p++
	}
	if p >= len(b) {
		return p, false, true
	}
	if isSpace(b[p]) || b[p] == '/' || b[p] == '>' {
		return p + 1, true, false
	}
	return p, false, false
}
