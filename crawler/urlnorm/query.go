package urlnorm

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// encodeQuery writes the non-ASCII characters of ref's query in enc and
// percent-encodes the bytes, as a browser does with a link it finds in a
// page in that encoding (URL Standard, query state: "percent-encode after
// encoding"). A windows-1252 page's href="?q=é" asks for "?q=%E9"; the
// same link on a UTF-8 page asks for "?q=%C3%A9". Only the query: the path
// is always UTF-8, and the fragment never leaves the browser.
//
// A nil enc means UTF-8, which needs no work here: the normalizer escapes
// the UTF-8 bytes itself.
func encodeQuery(ref string, enc encoding.Encoding) string {
	start := strings.IndexAny(ref, "?#")
	if enc == nil || start < 0 || ref[start] == '#' {
		return ref // no query
	}
	end := len(ref)
	if i := strings.IndexByte(ref[start:], '#'); i >= 0 {
		end = start + i
	}
	query := ref[start+1 : end]
	if isASCII(query) {
		return ref // ASCII is ASCII in every encoding a URL may use
	}
	var b strings.Builder
	b.WriteString(ref[:start+1])
	e := enc.NewEncoder()
	for i := 0; i < len(query); {
		if query[i] < utf8.RuneSelf {
			b.WriteByte(query[i])
			i++
			continue
		}
		// Encode a whole run of non-ASCII characters at once: a stateful
		// encoding (ISO-2022-JP) switches in and out of a character set
		// around it, as a browser's encoder does.
		j := i + 1
		for j < len(query) && query[j] >= utf8.RuneSelf {
			j++
		}
		encodeRun(&b, e, []byte(query[i:j]))
		i = j
	}
	b.WriteString(ref[end:])
	return b.String()
}

// encodeRun encodes src with e into b, percent-encoded. A character the
// encoding cannot represent becomes "%26%23" + its code point in decimal +
// "%3B": the HTML numeric character reference "&#233;" that browsers send
// (for the forms of old pages), with "&", "#" and ";" escaped so that they
// cannot split the query or end it.
func encodeRun(b *strings.Builder, e *encoding.Encoder, src []byte) {
	defer e.Reset()
	var buf [64]byte
	for {
		nDst, nSrc, err := e.Transform(buf[:], src, true)
		writeQueryBytes(b, buf[:nDst])
		src = src[nSrc:]
		switch {
		case err == nil && len(src) == 0:
			return
		case (err == nil || err == transform.ErrShortDst) && nDst+nSrc > 0:
			continue // buf was full: go on
		case len(src) == 0:
			return // cannot happen: 64 bytes hold any one character's bytes
		}
		// The encoder stopped at a character it cannot represent (or at
		// invalid UTF-8, which is U+FFFD, which it cannot represent either).
		r, size := utf8.DecodeRune(src)
		b.WriteString("%26%23")
		b.WriteString(strconv.Itoa(int(r)))
		b.WriteString("%3B")
		src = src[size:]
	}
}

// writeQueryBytes appends encoded bytes to b, escaping those the URL
// Standard's special-query percent-encode set names: not printable ASCII,
// or one of `"#<>'`. The other ASCII bytes that some encodings produce
// (ISO-2022-JP's, the second byte of a Shift_JIS character) go in as they
// are; the normalizer then escapes what RFC 3986 does not allow raw.
func writeQueryBytes(b *strings.Builder, p []byte) {
	for _, c := range p {
		if c < 0x21 || c > 0x7e || strings.IndexByte(`"#<>'`, c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
			continue
		}
		b.WriteByte(c)
	}
}
