package crawler

import (
	"errors"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html/charset"

	"loopkit/crawler/frontier"
	"loopkit/crawler/http1"
	"loopkit/crawler/links"
	"loopkit/crawler/urlnorm"
	"loopkit/future"
	"loopkit/task"
)

// fetch makes one attempt at a page and records what came of it, or asks
// for another attempt: the chapter's fetch(). A redirect's target is
// queued like a link (the crawler follows redirects, not the HTTP client,
// so that they pass the same filters and chains merge in the seen set);
// an HTML page's links are parsed and queued (parseLinks).
func (c *Crawler) fetch(y task.Yield, j *frontier.Job) verdict {
	it := j.Item
	tries := it.Tries + 1
	start := time.Now()
	c.stats.InFlight++
	req := c.pageRequest(it.URL)
	reply, err := c.request(y, j, req)
	c.stats.InFlight--
	if errors.Is(err, future.ErrCancelled) {
		c.stats.Cancelled++ // cut short by an interrupt: still to do
		return verdict{}
	}
	if errors.Is(err, http1.ErrRetried) || reply != nil && reply.Retried {
		tries++ // the client sent it twice: a dead pooled connection, then a fresh one
	}
	v, giveUp := c.judge(j, reply, err, tries)
	if v.retry {
		release(reply)
		return v
	}
	rec := &Record{URL: it.URL, Depth: int(it.Depth), Tries: int(tries)}
	rec.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	if reply == nil {
		rec.Exception, rec.ErrorKind = ptr(err.Error()), errorKind(err)
		c.record(rec)
		return v
	}
	if err != nil { // a response came earlier, but the last retry failed
		rec.Exception, rec.ErrorKind = ptr(err.Error()), errorKind(err)
	}
	if bodyRead := c.describeReply(y, rec, reply, j); bodyRead {
		release(reply)
	}
	if giveUp != "" {
		rec.Exception, rec.ErrorKind = ptr(giveUp), ErrorKindRetryAfter
	}
	c.record(rec)
	if giveUp != "" {
		c.failHost(c.hosts[j.Host.Origin()], "not fetched: "+giveUp, ErrorKindRetryAfter)
	}
	return v
}

// release hands a reply the crawler is done with back to the client,
// whose next request reuses its memory instead of allocating anew
// (crawler/http1's free list). Everything the record keeps was copied
// out of it first: strings, never the body.
func release(reply *http1.Reply) {
	if reply != nil {
		reply.Release()
	}
}

// request sends req for j and waits for its reply. The gate is asked
// before it goes on the wire (sendGate), the frontier hears when it is
// there (its server's spacing counts from then), and OnAttempt, if set,
// hears how it went. The request can be cancelled by an interrupt
// (cancelInFlight) until its reply has come; a reply that came is never
// thrown away for a cancellation that came after it.
func (c *Crawler) request(y task.Yield, j *frontier.Job, req http1.Request) (*http1.Reply, error) {
	req.Sent = func() {
		c.front.Sent(j, c.loop.Time())
		if !j.Gate {
			c.ext.sent(j.Item.URL)
		}
		c.dispatch()
	}
	req.Sending = c.sendGate(j)
	trace := c.traceFor(&req)
	f := c.client.Do(req)
	c.fetches[f] = j
	reply, err := task.Await(y, f)
	delete(c.fetches, f)
	if errors.Is(err, future.ErrCancelled) && f.Done() {
		if r, ferr := f.Result(); ferr == nil {
			reply, err = r, nil // it came just before the cancellation did
		}
	}
	c.attempted(j, trace, reply, err)
	return reply, err
}

// pageRequest is the request for a page. Only the body of a successful
// HTML answer is read, unless Config.AllBodies asks for every body: a PDF, a
// zip or an error page would be downloaded for nothing.
func (c *Crawler) pageRequest(url string) http1.Request {
	req := http1.Request{URL: url}
	if !c.cfg.AllBodies {
		req.WantBody = wantBody
	}
	return req
}

func wantBody(head *http1.Response) bool {
	return head.StatusCode/100 == 2 && links.IsHTML(http1.MediaType(head.Header.Get("Content-Type")))
}

// describeReply fills rec from a reply and acts on what it says: the
// chapter's fetch() after the response came, with redirects and links
// going through the same filters. It reports whether the reply's body is
// read and done with: not while a parse worker may still be reading it.
func (c *Crawler) describeReply(y task.Yield, rec *Record, reply *http1.Reply, j *frontier.Job) (bodyRead bool) {
	rec.Status = ptr(reply.StatusCode)
	rec.Size = len(reply.Body)
	if reply.BodySkipped {
		rec.BodySkipped, rec.Size = true, int(max(reply.ContentLength, 0))
	}
	rec.ContentType = http1.MediaType(reply.Header.Get("Content-Type"))
	page, err := url.Parse(j.Item.URL)
	if err != nil { // unreachable: queued URLs are normalized
		rec.Exception = ptr(err.Error())
		return true
	}
	switch {
	case IsRedirect(reply.StatusCode):
		c.followRedirect(rec, reply, page, j.Item)
	case links.IsHTML(rec.ContentType) && reply.StatusCode/100 == 2:
		return c.parseLinks(y, rec, reply, page, int(j.Item.Depth))
	case isText(rec.ContentType):
		rec.Encoding = reply.Charset()
	}
	return true
}

// IsRedirect says whether a status is a redirect the crawler follows
// (308 included, which the chapter's crawler missed).
func IsRedirect(code int) bool {
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
func (c *Crawler) followRedirect(rec *Record, reply *http1.Reply, base *url.URL, it frontier.Item) {
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
		rec.Exception, rec.ErrorKind = ptr("redirect without a usable Location: "+err.Error()), ErrorKindBadRedirect
		return
	}
	rec.NextURL = ptr(next.String())
	if it.Redirects <= 0 {
		rec.Exception, rec.ErrorKind = ptr("redirect limit reached (Config.MaxRedirect)"), ErrorKindRedirectLimit
		return
	}
	c.follow(next, int(it.Redirects)-1, int(it.Depth))
}

// traceFor asks the client to trace req, when someone listens.
func (c *Crawler) traceFor(req *http1.Request) *http1.Trace {
	if c.cfg.OnAttempt == nil {
		return nil
	}
	req.Trace = new(http1.Trace)
	return req.Trace
}

// attempted tells Config.OnAttempt about a request that ended.
func (c *Crawler) attempted(j *frontier.Job, trace *http1.Trace, reply *http1.Reply, err error) {
	if trace == nil {
		return
	}
	a := &Attempt{URL: j.Item.URL, Loop: c.index, Robots: j.Gate, Try: int(j.Item.Tries) + 1,
		Queued: time.Duration(j.Item.QueuedMS) * time.Millisecond, Trace: *trace}
	if reply != nil {
		a.Status = reply.StatusCode
	}
	if err != nil {
		a.Err = err.Error()
	}
	c.out.call(func() { c.cfg.OnAttempt(a) })
}

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
// it to UTF-8, and extracts its links by the HTML tokenizer's rules
// (crawler/links). A 64 KiB page costs some 80 µs of CPU for its links
// alone (BenchmarkScan), and the loop would serve no connection
// meanwhile; so, unless the page is small, it runs on a parse worker
// (parsepool.go). It reads only its arguments and writes only its result,
// so it may run on any goroutine: the body is the reply's, and nothing
// writes it until fetch releases the reply, once this result is back.
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
// in fetch(). It reports whether the body is done with: not when an
// interrupt cancelled the wait while a worker still reads it.
func (c *Crawler) parseLinks(y task.Yield, rec *Record, reply *http1.Reply, page *url.URL, depth int) (bodyRead bool) {
	p, err := c.parser.parse(y, c, reply.Header.Get("Content-Type"), reply.Body, page)
	if err != nil { // cancelled by an interrupt while it was parsed
		rec.Encoding = reply.Charset()
		rec.Exception, rec.ErrorKind = ptr("links not parsed: "+err.Error()), errorKind(err)
		return false
	}
	rec.Encoding = p.encoding
	if p.err != nil {
		rec.Exception, rec.ErrorKind = ptr("parsing links: "+p.err.Error()), ErrorKindParse
		return true
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
	return true
}
