package site

import (
	"fmt"
	"net"
	"strings"
)

// A page is one of the hand-written pages. Its markup is a list of pieces, and a piece
// that is a link also says where the link leads, so one table both renders the page and
// tells Expected what a crawler finds on it: the two cannot drift apart.
type page struct {
	contentType []string
	pieces      []piece
	encoding    textEncoding // how the text goes on the wire
	perHost     bool         // mentions {{host}}, so it is rendered for each request
	rendered    []byte       // the whole response body, when !perHost
}

// A piece is a run of markup. For a link, target is where it leads once resolved
// against the page and normalized: an on-site path ("/extras/dot.html", decoded, as the
// server sees it, behind "//h" when it is on host h ≥ 1: see on), or an absolute
// off-site URL, which a strict crawler does not fetch.
// Links a crawler must not follow at all (mailto:, javascript:) have no target.
type piece struct {
	html   string
	target string
}

// Placeholders for the address the client used, so that absolute links work under any
// name the site is reached by. {{HOST}} is the host upper-cased, with the port always
// written out (":80" included), to test normalization. (A link to another host of the
// site uses a third, originPlaceholder: see hosts.go.)
const (
	hostPlaceholder      = "{{host}}"
	upperHostPlaceholder = "{{HOST}}"
)

func markup(html string) piece { return piece{html: html} }

// anchor is a link written in any markup at all (quotes, case, whitespace...).
func anchor(html, target string) piece { return piece{html: html, target: target} }

// item is the common case: a list item holding one plain link.
func item(href, label, target string) piece {
	return piece{html: "<li><a href=\"" + href + "\">" + label + "</a></li>\n", target: target}
}

// document wraps a body in the usual top and bottom of an HTML page.
func document(title string, body ...piece) []piece {
	top := markup(pageStart + title + titleEnd)
	return append(append([]piece{top}, body...), markup(pageEnd))
}

// newPage compiles a page: pages that depend on neither the client's host nor another
// host's origin are rendered once.
func newPage(contentType string, enc textEncoding, pieces []piece) *page {
	pg := &page{contentType: []string{contentType}, pieces: pieces, encoding: enc}
	for _, p := range pieces {
		pg.perHost = pg.perHost || strings.Contains(p.html, "{{")
	}
	if !pg.perHost {
		pg.rendered = pg.append(nil, nil)
	}
	return pg
}

func htmlPage(title string, body ...piece) *page {
	return newPage(ctHTML[0], utf8Text, document(title, body...))
}

// append appends the page as it goes on the wire for the request that o describes
// (nil for a page that is not perHost).
func (pg *page) append(b []byte, o *origins) []byte {
	if pg.encoding == utf8BOMText {
		b = append(b, "\uFEFF"...)
	}
	for _, p := range pg.pieces {
		markup := p.html
		if pg.perHost {
			markup = o.expand(markup, p.target, true)
		}
		b = pg.encoding.append(b, markup)
	}
	return b
}

func (pg *page) targets() []string {
	var out []string
	for _, p := range pg.pieces {
		if p.target != "" {
			out = append(out, p.target)
		}
	}
	return out
}

// expandHost replaces the placeholders in s with host.
func expandHost(s, host string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	s = strings.ReplaceAll(s, hostPlaceholder, host)
	return strings.ReplaceAll(s, upperHostPlaceholder, upperHost(host))
}

// upperHost spells "localhost:8080" as "LOCALHOST:8080" and "localhost" as "LOCALHOST:80":
// a link that only a crawler which lower-cases hosts and drops default ports recognizes.
func upperHost(host string) string {
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = host, "80"
	}
	return net.JoinHostPort(strings.ToUpper(name), port)
}

// textEncoding is how the site puts a page's text on the wire.
type textEncoding int

const (
	utf8Text        textEncoding = iota
	utf8BOMText                  // UTF-8 after a byte order mark
	latin1Text                   // ISO-8859-1
	windows1252Text              // ISO-8859-1 plus the characters in windows1252High
)

// The characters that windows-1252 puts where ISO-8859-1 has C1 control codes; only the
// ones our pages use.
var windows1252High = map[rune]byte{
	'€': 0x80, '…': 0x85, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96, '—': 0x97,
}

// append encodes s, which is UTF-8, onto b. Only the site's own page text reaches it,
// so a character the encoding cannot hold is a bug in that text, and panics.
func (e textEncoding) append(b []byte, s string) []byte {
	if e == utf8Text || e == utf8BOMText {
		return append(b, s...)
	}
	for _, r := range s {
		switch hi, ok := windows1252High[r]; {
		case r < 0x80 || (0xA0 <= r && r <= 0xFF):
			b = append(b, byte(r))
		case e == windows1252Text && ok:
			b = append(b, hi)
		default:
			panic(fmt.Sprintf("site: %q (%U) has no byte in encoding %d", string(r), r, e))
		}
	}
	return b
}
