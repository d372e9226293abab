package crawler

import (
	"errors"
	"net/url"
	"strings"

	"loopkit/crawler/http1"
	"loopkit/crawler/links"
	"loopkit/crawler/urlnorm"
	"loopkit/task"
)

// describeReply fills rec from a reply and acts on what it says: the
// chapter's fetch() after the response came, and its parse_links(), with
// redirects and links going through the same filters.
func (c *Crawler) describeReply(y task.Yield, rec *Record, reply *http1.Reply, j job) {
	rec.Status = ptr(reply.StatusCode)
	rec.Size = len(reply.Body)
	if reply.BodySkipped {
		rec.BodySkipped, rec.Size = true, int(max(reply.ContentLength, 0))
	}
	rec.ContentType = http1.MediaType(reply.Header.Get("Content-Type"))
	page, err := url.Parse(j.item.url)
	if err != nil { // unreachable: queued URLs are normalized
		rec.Exception = ptr(err.Error())
		return
	}
	switch {
	case isRedirect(reply.StatusCode):
		c.followRedirect(rec, reply, page, j.item)
	case links.IsHTML(rec.ContentType) && reply.StatusCode/100 == 2:
		c.parseLinks(y, rec, reply, page, int(j.item.depth))
	case isText(rec.ContentType):
		rec.Encoding = reply.Charset()
	}
}

func isRedirect(code int) bool {
	switch code {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

func isText(mediaType string) bool {
	return strings.HasPrefix(mediaType, "text/") || strings.HasSuffix(mediaType, "+xml") ||
		mediaType == "application/json" || mediaType == "application/xml"
}

// followRedirect records the target and queues it like a link — filtered,
// and merged with any other way of reaching it through the seen set.
func (c *Crawler) followRedirect(rec *Record, reply *http1.Reply, base *url.URL, it item) {
	loc := reply.Header.Get("Location")
	next, err := urlnorm.Resolve(base, loc)
	switch {
	case loc == "":
		err = errors.New("none")
	case err == nil:
	case errors.Is(err, urlnorm.ErrNotCrawlable), errors.Is(err, urlnorm.ErrInvalidHost):
		// Resolve's errors never carry the userinfo a Location may hold.
	default:
		err = errors.New("malformed") // a parse error would quote the raw Location
	}
	if err != nil {
		rec.Exception, rec.ErrorKind = ptr("redirect without a usable Location: "+err.Error()), "bad_redirect"
		return
	}
	rec.NextURL = ptr(next.String())
	if it.redirects <= 0 {
		rec.Exception, rec.ErrorKind = ptr("redirect limit reached (max_redirect)"), "redirect_limit"
		return
	}
	c.follow(next, int(it.redirects)-1, int(it.depth))
}

// parseLinks has the page parsed — on a parse worker, unless it is small
// (parsepool.go) — and queues the links that pass the filters and were not
// seen before.
func (c *Crawler) parseLinks(y task.Yield, rec *Record, reply *http1.Reply, page *url.URL, depth int) {
	p, err := c.parser.parse(y, reply.Header.Get("Content-Type"), reply.Body, page)
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
