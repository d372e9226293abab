package http1

import (
	"bytes"
	"mime"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// MediaType returns the media type of a Content-Type value, lower case and
// without parameters: "text/html" for "Text/HTML; charset=UTF-8". A value
// mime.ParseMediaType rejects is not an error here: what comes before the
// first ";", "," or space is still the server's best statement of the type
// ("text/html, text/html" from merged duplicate fields is still HTML).
func MediaType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err == nil || err == mime.ErrInvalidMediaParameter {
		return mt
	}
	s := strings.TrimLeft(contentType, " \t")
	if end := strings.IndexAny(s, "; ,\t"); end >= 0 {
		s = s[:end]
	}
	return strings.ToLower(s)
}

// Charset returns the name of the character encoding to decode body with:
// a canonical WHATWG name ("utf-8", "windows-1252", "shift_jis", ...) that
// charset.Lookup in golang.org/x/net/html/charset turns into a decoder.
//
// The evidence is weighed in the order of the HTML standard's encoding
// sniffing algorithm, strongest first:
//
//  1. a byte order mark at the start of body. The bytes themselves say how
//     they are encoded, so the standard lets a BOM override even the
//     header, and browsers do;
//  2. the charset parameter of contentType, if it names a known encoding
//     (a misspelled label is no evidence, and is skipped);
//  3. for HTML only, a <meta charset="..."> or <meta http-equiv=
//     "Content-Type" content="...; charset=..."> in the first 1024 bytes;
//  4. "utf-8".
//
// Where step 4 stands, a browser would guess from the bytes or from the
// user's locale (often windows-1252). A crawler has no locale, most of the
// web is UTF-8, and robots.txt must be (RFC 9309): bytes that are not UTF-8
// decode to U+FFFD, and the links, which are ASCII, survive.
func Charset(contentType string, body []byte) string {
	switch {
	case bytes.HasPrefix(body, []byte("\xef\xbb\xbf")):
		return "utf-8"
	case bytes.HasPrefix(body, []byte("\xfe\xff")):
		return "utf-16be"
	case bytes.HasPrefix(body, []byte("\xff\xfe")):
		return "utf-16le"
	}
	if name := lookup(charsetParam(contentType)); name != "" {
		return name
	}
	if mt := MediaType(contentType); mt == "text/html" || mt == "application/xhtml+xml" {
		if name := metaCharset(body[:min(len(body), 1024)]); name != "" {
			return name
		}
	}
	return "utf-8"
}

// lookup returns the canonical name of a charset label, or "" for a label
// the WHATWG Encoding standard does not know. Labels are many-to-one:
// "latin1", "iso-8859-1" and "ascii" all name windows-1252, which is what
// browsers decode them as.
func lookup(label string) string {
	if label == "" {
		return ""
	}
	_, name := charset.Lookup(label)
	return name
}

// charsetParam returns the charset parameter of a Content-Type value. When
// mime.ParseMediaType gives up on the value (a duplicate or malformed
// parameter somewhere), it falls back to the lenient extraction that HTML
// applies to a meta element's content attribute.
func charsetParam(contentType string) string {
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		return params["charset"]
	}
	return charsetFromContent(contentType)
}

// metaCharset looks for the encoding a document declares in a <meta>
// element. The tokenizer skips comments and script text, so a "<meta"
// inside either is not mistaken for a declaration.
func metaCharset(head []byte) string {
	z := html.NewTokenizer(bytes.NewReader(head))
	for {
		switch z.Next() {
		case html.ErrorToken: // io.EOF, or the 1024 bytes ran out mid-tag
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			tag, hasAttr := z.TagName()
			if string(tag) != "meta" {
				continue
			}
			var label, content string
			isContentType := false
			seen := map[string]bool{}
			for hasAttr {
				var key, val []byte
				key, val, hasAttr = z.TagAttr()
				if seen[string(key)] {
					continue // of repeated attributes the first counts, as in the standard
				}
				seen[string(key)] = true
				switch string(key) {
				case "charset":
					label = string(val)
				case "http-equiv":
					isContentType = strings.EqualFold(string(val), "content-type")
				case "content":
					content = string(val)
				}
			}
			if label == "" && isContentType {
				label = charsetFromContent(content)
			}
			if name := lookup(label); name != "" {
				// A document that could be read as ASCII far enough to
				// find this tag is not UTF-16, whatever it says; the
				// standard reads that declaration as UTF-8.
				if strings.HasPrefix(name, "utf-16") {
					return "utf-8"
				}
				return name
			}
		}
	}
}

// charsetFromContent extracts "x" from "text/html; charset=x" as the HTML
// standard does for a meta element's content attribute: the first
// "charset", case-insensitive, followed by "=", then a quoted or bare
// value.
func charsetFromContent(s string) string {
	const key = "charset"
	for i := 0; i+len(key) <= len(s); i++ {
		if !strings.EqualFold(s[i:i+len(key)], key) {
			continue
		}
		rest := strings.TrimLeft(s[i+len(key):], " \t\n\f\r")
		if !strings.HasPrefix(rest, "=") {
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t\n\f\r")
		if rest == "" {
			return ""
		}
		if q := rest[0]; q == '"' || q == '\'' {
			if end := strings.IndexByte(rest[1:], q); end >= 0 {
				return rest[1 : 1+end]
			}
			return ""
		}
		if end := strings.IndexAny(rest, "; \t\n\f\r"); end >= 0 {
			return rest[:end]
		}
		return rest
	}
	return ""
}
