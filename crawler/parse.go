package crawler

import (
	"net/url"

	"golang.org/x/net/html/charset"

	"loopkit/crawler/http1"
	"loopkit/crawler/links"
)

// parsed is what parsing a page yields: the charset its body was read in,
// and its links, or why they could not be had.
type parsed struct {
	encoding string
	links    []*url.URL
	err      error
}

// parsePage is the crawl's computing, as against its waiting: it finds the
// charset of body (a byte order mark, the Content-Type, a <meta>), decodes
// it to UTF-8, and extracts its links with an HTML tokenizer. A 100 KB
// page costs about a millisecond of CPU, and the loop would serve no
// connection meanwhile; so, unless the page is small, it runs on a parse
// worker (parsepool.go). It reads only its arguments and writes only its
// result, so it may run on any goroutine: the body is the reply's own
// copy, which nothing writes once the reply is complete.
func parsePage(contentType string, body []byte, page *url.URL) parsed {
	p := parsed{encoding: http1.Charset(contentType, body)}
	if enc, name := charset.Lookup(p.encoding); enc != nil && name != "utf-8" {
		if decoded, err := enc.NewDecoder().Bytes(body); err == nil {
			body = decoded
		}
	}
	// Links' queries are sent in the page's own encoding, as browsers do.
	p.links, p.err = links.ExtractCharset(body, page, p.encoding)
	return p
}
