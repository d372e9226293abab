package crawler

import (
	"net/url"

	"golang.org/x/net/html/charset"

	"loopkit/crawler/http1"
	"loopkit/crawler/links"
	"loopkit/task"
)

// parsed is what parsing a page yields: the charset its body was read in,
// and its links, or why they could not be had.
type parsed struct {
	encoding string
	links    []*url.URL
	err      error
}

// ParsePage is the crawler's reading of a page, for whoever wants to read
// pages exactly as the crawler does (the benchmarks' variants do): the
// charset it decodes the body in, and the links it finds there.
func ParsePage(contentType string, body []byte, page *url.URL) (encoding string, found []*url.URL, err error) {
	p := parsePage(contentType, body, page)
	return p.encoding, p.links, p.err
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

// parseLinks has the page parsed — on a parse worker, unless it is small
// (parsepool.go) — and queues the links that pass the filters and were not
// seen before: the chapter's parse_links, and the loop over its result
// in fetch().
func (c *Crawler) parseLinks(y task.Yield, rec *Record, reply *http1.Reply, page *url.URL, depth int) {
	p, err := c.parser.parse(y, c, reply.Header.Get("Content-Type"), reply.Body, page)
	if err != nil { // cancelled by an interrupt while it was parsed
		rec.Encoding = reply.Charset()
		rec.Exception, rec.ErrorKind = ptr("links not parsed: "+err.Error()), errorKind(err)
		return
	}
	rec.Encoding = p.encoding
	if p.err != nil {
		rec.Exception, rec.ErrorKind = ptr("parsing links: "+p.err.Error()), "parse"
		return
	}
	for _, link := range p.links {
		passed, isNew := c.follow(link, c.cfg.MaxRedirect, depth+1)
		if passed {
			rec.NumURLs++
		}
		if isNew {
			rec.NumNewURLs++
		}
	}
}
