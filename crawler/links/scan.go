package links

import (
	"bytes"
	"io"

	"golang.org/x/net/html"
)

// scan returns the page's link attribute values in document order, each
// distinct string once, and the first <base href>. It does not resolve
// anything yet: a <base> may come after links it governs.
//
// Why not golang.org/x/net/html's Tokenizer, as Extract once did: a
// tokenizer hands back every token — each run of text, each tag, each
// attribute — reading the page one byte at a time through a method call.
// A documentation page is mostly text, and a crawler wants a few hundred
// bytes of it: the value of href in a handful of tags. On 64 KiB pages
// the tokenizer was half of the crawl's CPU (docs/benchmarks.md has the
// profile). So scan reads the page the way the tokenizer does — the same
// states, from the WHATWG tokenization rules as x/net/html implements
// them — but jumps over text with bytes.IndexByte (a vector instruction
// over 16 or 32 bytes at a time) to the next '<', and looks inside tags
// only. TestScanFindsWhatTheTokenizerFinds holds it to the tokenizer's
// answer, on a corpus and on fuzzed input.
//
// What a tag is, and where it ends, is decided here. Decoding a value —
// character references ("&amp;"), line ends — is left to the tokenizer,
// for the few values that need it (see decode): it knows the 2,231 named
// references, and is the one place they are written down.
func scan(body []byte) (refs []string, baseHref *string, err error) {
	s := scanner{b: body, distinct: make(map[string]struct{})}
	s.run()
	return s.refs, s.baseHref, nil
}

// scanner is one page's scan. i is where reading goes on.
type scanner struct {
	b        []byte
	i        int
	refs     []string
	distinct map[string]struct{}
	baseHref *string
	dec      decoder
}

// run reads the page in the tokenizer's data state: text, until a '<'
// that starts a tag, an end tag, a comment or a declaration. It returns
// at the end of the page, or where the tokenizer would stop finding
// tags: an unfinished tag or comment, or raw text, that runs to the end.
func (s *scanner) run() {
	b := s.b
	for {
		j := bytes.IndexByte(b[s.i:], '<')
		if j < 0 || s.i+j+1 >= len(b) {
			return
		}
		lt := s.i + j
		c := b[lt+1]
		var more bool
		switch {
		case isLetter(c):
			more = s.startTag(lt)
		case c == '/':
			more = s.endTag(lt)
		case c == '!':
			more = s.markup(lt + 2)
		case c == '?': // a processing instruction: a bogus comment
			more = s.untilCloseAngle(lt + 1)
		default: // "<" then anything else is text; c is read again
			s.i, more = lt+1, true
		}
		if !more {
			return
		}
	}
}

// startTag reads the tag at b[lt:], keeps its link if it has one, and
// skips the raw text of the elements whose content is not markup.
func (s *scanner) startTag(lt int) bool {
	t, ok := readTag(s.b, lt+1)
	if !ok {
		return false // a tag cut off by the end of the page is no tag
	}
	s.i = t.end
	if t.hasLink {
		s.keep(t, s.b[lt:t.end])
	}
	raw := rawText(t.name)
	switch raw {
	case "":
		return true
	case "plaintext":
		return false // the rest of the page is text
	case "script":
		return s.skipScript()
	}
	return s.skipRaw(raw)
}

// keep records the link of tag t, whose bytes are raw.
func (s *scanner) keep(t tag, raw []byte) {
	var v string
	if bytes.IndexByte(t.link, '&') < 0 && bytes.IndexByte(t.link, '\r') < 0 {
		// Nothing to decode: the bytes are the value. A page links to the
		// same few places again and again (a 64 KiB documentation page:
		// a thousand links, a few dozen distinct), so the bytes are
		// looked up before a string is made of them: the compiler makes
		// no string for a map index written string(b).
		if _, dup := s.distinct[string(t.link)]; dup && !equalFold(t.name, "base") {
			return
		}
		v = string(t.link)
	} else {
		var ok bool
		if v, ok = s.dec.value(raw); !ok {
			return
		}
	}
	if equalFold(t.name, "base") {
		if s.baseHref == nil {
			base := v // a variable of its own: taking v's address would put v on the heap for every link
			s.baseHref = &base
		}
		return
	}
	if _, dup := s.distinct[v]; !dup {
		s.distinct[v] = struct{}{}
		s.refs = append(s.refs, v)
	}
}

// endTag reads "</...": an end tag (its attributes are read, to find its
// '>', and dropped), "</>" (nothing), or a bogus comment.
func (s *scanner) endTag(lt int) bool {
	p := lt + 2
	switch {
	case p >= len(s.b):
		return false
	case s.b[p] == '>':
		s.i = p + 1
		return true
	case isLetter(s.b[p]):
		t, ok := readTag(s.b, p)
		s.i = t.end
		return ok
	}
	return s.untilCloseAngle(p)
}

// markup reads what follows "<!" at b[p:]: a comment if it starts with
// "--", else a doctype or a bogus comment, which both end at the next '>'.
func (s *scanner) markup(p int) bool {
	if p+2 > len(s.b) {
		return false
	}
	if s.b[p] == '-' && s.b[p+1] == '-' {
		return s.comment(p + 2)
	}
	return s.untilCloseAngle(p)
}

// untilCloseAngle skips to after the next '>' from b[p:].
func (s *scanner) untilCloseAngle(p int) bool {
	j := bytes.IndexByte(s.b[p:], '>')
	if j < 0 {
		return false
	}
	s.i = p + j + 1
	return true
}

// comment skips a comment whose text starts at b[start:]. It ends at the
// first '>' that comes after "--" or "--!", or right at the start after
// nothing but dashes ("<!-->", "<!--->"): the tokenizer's readComment,
// which counts dashes as it goes, looked at from each '>' backwards.
func (s *scanner) comment(start int) bool {
	for p := start; ; p++ {
		j := bytes.IndexByte(s.b[p:], '>')
		if j < 0 {
			return false
		}
		p += j
		text := s.b[start:p]
		dashes := trailingDashes(text)
		switch {
		case dashes == len(text), // only dashes since "<!--"
			dashes >= 2,
			len(text) > 0 && text[len(text)-1] == '!' && trailingDashes(text[:len(text)-1]) >= 2:
			s.i = p + 1
			return true
		}
	}
}

func trailingDashes(b []byte) int {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '-' {
		n++
	}
	return n
}

// skipRaw skips the text of a raw text or RCDATA element (style,
// textarea, title...) up to its end tag, "</name" then a space, '/' or
// '>', in any case. The end tag itself is read by run.
func (s *scanner) skipRaw(name string) bool {
	b := s.b
	for p := s.i; ; {
		j := bytes.IndexByte(b[p:], '<')
		if j < 0 {
			return false
		}
		p += j + 1
		if p >= len(b) {
			return false
		}
		if b[p] != '/' {
			continue // b[p] is read again: it may be the next '<'
		}
		next, matched, eof := rawEndTag(b, p+1, name)
		switch {
		case eof:
			return false
		case matched:
			s.i = p - 1
			return true
		}
		p = next
	}
}

// rawEndTag matches name, then a space, '/' or '>', at b[p:], as the
// tokenizer's readRawEndTag does after "</". On a mismatch, next is the
// byte that did not match, to be read again.
func rawEndTag(b []byte, p int, name string) (next int, matched, eof bool) {
	for i := 0; i < len(name); i++ {
		if p >= len(b) {
			return p, false, true
		}
		if c := b[p]; c != name[i] && c != name[i]-('a'-'A') {
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

// linkAttr names the attribute of tag that holds a link, or "" if tag has
// none we follow.
func linkAttr(tag []byte) string {
	switch {
	case equalFold(tag, "a"), equalFold(tag, "area"), equalFold(tag, "link"), equalFold(tag, "base"):
		return "href"
	case equalFold(tag, "frame"), equalFold(tag, "iframe"):
		return "src"
	}
	return ""
}

// rawText returns the lower-cased name of tag if its content is raw text
// for the tokenizer, "" if it is markup. <noscript> is raw to a browser
// that runs scripts; we run none, and read it as markup.
func rawText(tag []byte) string {
	for _, name := range [...]string{"script", "style", "title", "textarea", "iframe", "xmp", "noembed", "noframes", "plaintext"} {
		if equalFold(tag, name) {
			return name
		}
	}
	return ""
}

// decoder hands the rare link values that need decoding — a character
// reference, a carriage return — to a tokenizer, which reads their tag
// alone: a tag's meaning does not depend on what came before it. One
// tokenizer serves the whole page, fed one tag at a time through feed.
type decoder struct {
	z    *html.Tokenizer
	feed tagFeed
}

// value returns the link attribute's value of the tag whose bytes are
// raw, decoded as the tokenizer decodes it.
func (d *decoder) value(raw []byte) (string, bool) {
	if d.z == nil {
		d.z = html.NewTokenizer(&d.feed)
	}
	d.feed.b = raw
	d.z.NextIsNotRawText() // the last tag fed may have been an <iframe>
	switch d.z.Next() {
	case html.StartTagToken, html.SelfClosingTagToken:
	default: // cannot happen for a whole tag; a fresh tokenizer next time
		d.z = nil
		return "", false
	}
	name, hasAttr := d.z.TagName()
	if !hasAttr {
		return "", false
	}
	key := linkAttr(name)
	for more := true; more; {
		var k, v []byte
		k, v, more = d.z.TagAttr()
		if string(k) == key {
			return string(v), true
		}
	}
	return "", false
}

// tagFeed is the decoder's tokenizer's input: the tag it is to read now.
type tagFeed struct{ b []byte }

func (f *tagFeed) Read(p []byte) (int, error) {
	if len(f.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, f.b)
	f.b = f.b[n:]
	return n, nil
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' }

// equalFold reports whether b is s in any ASCII case; s is lower-case.
func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(s) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}
