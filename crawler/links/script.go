package links

import "bytes"

// The states of a <script>'s text, as the tokenizer's readScript has
// them; each escaped text's four states are in this order (escapedNext). A script may hide "</script>" from the tokenizer inside
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
				next, done, eof := s.scriptEndTag(p)
				if done || eof {
					return done
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
			state = escapedNext(c, state, scriptEscaped)
		case scriptEscapedLessThan:
			switch {
			case c == '/':
				next, done, eof := s.scriptEndTag(p)
				if done || eof {
					return done
				}
				p = next
				state = scriptEscaped
			case isLetter(c):
				// "<script" then a space, '/' or '>' begins the double
				// escape (matched as an end tag's name is); anything else
				// goes back to the escaped text, the byte that did not
				// match read again.
				next, matched, eof := rawEndTag(b, p-1, "script")
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
			state = escapedNext(c, state, scriptDoubleEscaped)
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

// scriptEndTag reads what follows "</" at b[p:] in a script: its end
// tag (done, and run reads the tag from its '<'), the end of the page
// (eof), or neither (next is the byte to read again).
func (s *scanner) scriptEndTag(p int) (next int, done, eof bool) {
	next, done, eof = rawEndTag(s.b, p, "script")
	if done {
		s.i = p - 2
	}
	return next, done, eof
}

// escapedNext is the next state of a script's escaped text, plain or
// double: text is its first state, followed in the list above by its
// dash, dash-dash and '<' states. "-->" goes back to plain script data.
func escapedNext(c byte, state, text int) int {
	switch {
	case c == '<':
		return text + 3
	case c == '>' && state == text+2:
		return scriptData
	case c == '-' && state == text:
		return text + 1
	case c == '-':
		return text + 2
	}
	return text
}
