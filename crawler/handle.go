package crawler

import (
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html/charset"

	"loopkit/crawler/http1"
	"loopkit/crawler/links"
	"loopkit/crawler/urlnorm"
	"loopkit/task"
)

// handle fetches one URL and records what came of it: the chapter's
// fetch() and its parse_links(), with robots.txt, redirects and links
// going through the same filters.
func (c *Crawler) handle(y task.Yield, it item) {
	if c.noMoreFetches() {
		c.stats.Todo++ // left for another crawl
		return
	}
	u, err := url.Parse(it.url)
	if err != nil {
		c.record(&Record{URL: it.url, Depth: it.depth, Exception: ptr(err.Error())})
		return
	}
	if !c.cfg.NoRobots {
		rules, err := c.robots.rulesFor(y, u)
		if err != nil { // cancelled by an interrupt while waiting for robots.txt
			c.stats.Todo++ // nothing was sent for this URL: it is still to do
			return
		}
		if !rules.Allowed(u.RequestURI()) {
			c.stats.RobotsDisallowed++
			return
		}
	}
	// Checked again: the robots.txt wait may have been long, and every
	// worker that waited passed the first check.
	if c.noMoreFetches() {
		c.stats.Todo++
		return
	}
	c.fetching++
	rec := &Record{URL: it.url, Depth: it.depth}
	start := time.Now()
	reply, tries, err := c.fetch(y, it.url, u.Host)
	rec.Tries = tries
	rec.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	if reply == nil {
		rec.Exception = ptr(err.Error())
		c.record(rec)
		return
	}
	if err != nil { // a response came, but the last retry failed or was cut short
		rec.Exception = ptr(err.Error())
	}
	rec.Status = ptr(reply.StatusCode)
	rec.Size = len(reply.Body)
	rec.ContentType = http1.MediaType(reply.Header.Get("Content-Type"))
	switch {
	case isRedirect(reply.StatusCode):
		c.followRedirect(rec, reply, u, it)
	case links.IsHTML(rec.ContentType) && reply.StatusCode/100 == 2:
		c.parseLinks(rec, reply, u, it.depth)
	case isText(rec.ContentType):
		rec.Encoding = reply.Charset()
	}
	c.record(rec)
}

// noMoreFetches reports whether the crawl starts no new fetches: it was
// interrupted, or its page budget is spent.
func (c *Crawler) noMoreFetches() bool {
	return c.stopping || (c.cfg.MaxPages > 0 && c.fetching >= c.cfg.MaxPages)
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
	if err != nil || loc == "" {
		rec.Exception = ptr("redirect without a usable Location: " + quoteLoc(loc))
		return
	}
	rec.NextURL = ptr(next.String())
	if it.redirects <= 0 {
		rec.Exception = ptr("redirect limit reached (max_redirect)")
		return
	}
	if c.allowed(next, it.depth) {
		c.add(next.String(), it.redirects-1, it.depth)
	}
}

func quoteLoc(s string) string {
	if s == "" {
		return "(none)"
	}
	return `"` + s + `"`
}

// parseLinks decodes the page with its charset, extracts its links, and
// queues those that pass the filters and were not seen before.
func (c *Crawler) parseLinks(rec *Record, reply *http1.Reply, page *url.URL, depth int) {
	rec.Encoding = reply.Charset()
	body := reply.Body
	if enc, name := charset.Lookup(rec.Encoding); enc != nil && name != "utf-8" {
		if decoded, err := enc.NewDecoder().Bytes(body); err == nil {
			body = decoded
		}
	}
	found, err := links.Extract(body, page)
	if err != nil {
		rec.Exception = ptr("parsing links: " + err.Error())
		return
	}
	for _, link := range found {
		if !c.allowed(link, depth+1) {
			continue
		}
		rec.NumURLs++
		if c.add(link.String(), c.cfg.MaxRedirect, depth+1) {
			rec.NumNewURLs++
		}
	}
}
