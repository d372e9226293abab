// Package printable makes text from the network safe to print on a
// terminal or in a log line.
//
// A server chooses its Content-Type, its certificate's names and many
// other strings that end up in a crawler's output. Printed as they came,
// an escape sequence among them could recolour or rewrite the terminal
// (ESC [ ... ), ring its bell, or move the cursor; a newline could forge a
// line of the report, and a right-to-left override could make a line say
// something else than its bytes. So whatever a program prints of a
// server's text goes through Escape first.
//
// internal/printable sits beside the library: crawler/http1, crawler and
// cmd/crawl use it where text leaves for a human. JSON output needs
// nothing of it, since encoding/json escapes control characters itself.
package printable

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s with every character that does not print as itself
// written the way Go source would write it: control bytes as \x1b, \n,
// \t; invisible or direction-changing characters as \u202e; bytes that
// are not UTF-8 as \xff. Letters, digits, punctuation and symbols of any
// script, and the plain space, are kept. Text that needs nothing comes
// back as it is, without a copy. Escaping is idempotent: what it returns
// is printable, so a second pass changes nothing.
//
// A backslash in s is kept as it is, so "\x1b" sent as four characters
// prints the same as an escaped ESC. That keeps ordinary text readable,
// and neither can do harm.
func Escape(s string) string {
	i := firstUnprintable(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(s[i])&15, 16))
		case printable(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRune(r) // '\x1b', '\n', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// firstUnprintable returns the index of the first byte that Escape must
// change, or -1.
func firstUnprintable(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
		if !printable(r) {
			return i
		}
	}
	return -1
}

func printable(r rune) bool { return r == ' ' || unicode.IsPrint(r) }
