package links

// tag is what scan needs of a start or end tag: its name, where it ends,
// and the value of its link attribute, if it has one (still encoded:
// character references are decoded by scanner.keep).
type tag struct {
	name    []byte
	end     int // just after the '>'
	link    []byte
	hasLink bool
}

// readTag reads a tag whose name starts at b[p], a letter, following the
// tokenizer's readTag: the name runs to a space, '/' or '>'; then come
// attributes, each a name, and perhaps '=' and a value, quoted or not,
// until the '>'. Quotes matter: a '>' inside a quoted value does not end
// the tag. The first attribute named as linkAttr says is the link, as in
// HTML, where a repeated attribute is ignored. ok is false if the page
// ends inside the tag.
func readTag(b []byte, p int) (t tag, ok bool) {
	start := p
	for p < len(b) && !isSpace(b[p]) && b[p] != '/' && b[p] != '>' {
		p++
	}
	t.name = b[start:p]
	want := linkAttr(t.name)
	for {
		p = skipSpace(b, p)
		if p >= len(b) {
			return t, false
		}
		if b[p] == '>' {
			t.end = p + 1
			return t, true
		}
		// An attribute's name: up to a space, '/', '>' or '=' (a leading
		// '=' is part of the name).
		keyStart := p
		p++
		for p < len(b) && !isSpace(b[p]) && b[p] != '/' && b[p] != '>' && b[p] != '=' {
			p++
		}
		key := b[keyStart:p]
		if keyStart < len(b) && (b[keyStart] == '/' || b[keyStart] == '>') {
			key = key[:0] // no name at all: a lone '/' (a '>' ends the tag below)
			p = keyStart
		}
		var val []byte
		val, p = readValue(b, p)
		if p > len(b) {
			return t, false
		}
		if !t.hasLink && want != "" && len(key) > 0 && equalFold(key, want) {
			t.link, t.hasLink = val, true
		}
	}
}

// readValue reads what follows an attribute's name at b[p:]: nothing, a
// '/' (dropped), or '=' and a value. It returns the value and where
// reading goes on; past len(b) if the page ended inside it.
func readValue(b []byte, p int) (val []byte, next int) {
	p = skipSpace(b, p)
	if p >= len(b) {
		return nil, len(b) + 1
	}
	switch b[p] {
	case '/':
		return nil, p + 1
	case '=':
	default:
		return nil, p // the next attribute's name, or the '>'
	}
	p = skipSpace(b, p+1)
	if p >= len(b) {
		return nil, len(b) + 1
	}
	switch q := b[p]; q {
	case '>':
		return nil, p
	case '"', '\'':
		for i := p + 1; i < len(b); i++ {
			if b[i] == q {
				return b[p+1 : i], i + 1
			}
		}
		return nil, len(b) + 1
	}
	for i := p; i < len(b); i++ {
		switch {
		case isSpace(b[i]):
			return b[p:i], i + 1
		case b[i] == '>':
			return b[p:i], i
		}
	}
	return nil, len(b) + 1
}

func skipSpace(b []byte, p int) int {
	for p < len(b) && isSpace(b[p]) {
		p++
	}
	return p
}
