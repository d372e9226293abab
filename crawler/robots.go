package crawler

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/http1"
	"loopkit/crawler/robots"
	"loopkit/crawler/urlnorm"
	"loopkit/future"
	"loopkit/task"
)

const (
	robotsTTL = 24 * time.Hour // RFC 9309 §2.4: cache no longer than 24 hours
	// robotsMaxBytes is how much of a robots.txt is read and parsed,
	// whatever --max_body says: RFC 9309 §2.5 asks for at least 500 KiB.
	// A longer file is cut there, not refused.
	robotsMaxBytes = 512 << 10
)

// fetchRobots is a host's gate, its first job: fetch its robots.txt,
// through the host's own politeness (it is a request to the host like any
// other, and Crawl-delay counts from it), and decide what the host's pages
// may do. Redirects and retries go back through the frontier as the same
// gate.
func (c *Crawler) fetchRobots(y task.Yield, j *frontier.Job) verdict {
	h, it := c.hosts[j.Host.Origin()], j.Item
	tries := it.Tries + 1
	c.stats.RobotsFetches++
	req := http1.Request{URL: it.URL, MaxBodyBytes: robotsMaxBytes, TruncateBody: true}
	reply, err := c.request(y, j, req)
	if errors.Is(err, future.ErrCancelled) {
		return verdict{retry: true, tries: it.Tries} // an interrupt: nothing was decided
	}
	v, giveUp := c.judge(j, reply, err, tries)
	switch {
	case giveUp != "":
		c.failHost(h, "robots.txt: "+giveUp, kindRobots)
		return verdict{}
	case v.retry:
		return v
	case err != nil:
		c.failHost(h, "robots.txt: "+err.Error()+unreachable(tries), kindRobots)
		return verdict{}
	}
	switch robots.ForStatus(reply.StatusCode) {
	case robots.UseBody:
		rules := robots.Parse(reply.Body, productToken(c.cfg.UserAgent))
		if d, ok := rules.CrawlDelay(); ok {
			// The server's delay: a Crawl-delay in either scheme's
			// robots.txt spaces both, the longer one winning. It counts
			// from this request, so the first page waits too.
			c.front.SetDelay(j.Host, min(d, c.cfg.MaxCrawlDelay))
		}
		c.robotsKnown(h, rules, reply.Body)
	case robots.FollowRedirect:
		return c.robotsRedirect(j, reply)
	case robots.Unavailable:
		c.robotsKnown(h, robots.AllowAll(), nil)
	default: // 5xx or 429, retried until MaxTries: the rules could say anything
		c.failHost(h, fmt.Sprintf("robots.txt: status %d%s", reply.StatusCode, unreachable(tries)), kindRobots)
	}
	return verdict{}
}

// robotsRedirect follows a robots.txt redirect (RFC 9309 §2.3.1.2: up to
// five, even to another host) by queueing the same gate with the new
// target. Too many, or no usable Location, means there is no file.
func (c *Crawler) robotsRedirect(j *frontier.Job, reply *http1.Reply) verdict {
	from, _ := url.Parse(j.Item.URL)
	next, err := urlnorm.Resolve(from, reply.Header.Get("Location"))
	if err != nil || j.Item.Redirects <= 0 {
		c.robotsKnown(c.hosts[j.Host.Origin()], robots.AllowAll(), nil)
		return verdict{}
	}
	return verdict{retry: true, redirectTo: next.String()} // through the frontier again, tries anew
}

// robotsKnown applies rules to h: the URLs it queued meanwhile are
// screened, and its pages may go, until the rules expire. body is what
// they were read from (nil: there is no file), for the journal.
func (c *Crawler) robotsKnown(h *hostPolicy, rules *robots.Rules, body []byte) {
	h.rules = rules
	c.keptRobots(h, body)
	c.front.Open(h.host, c.loop.Time()+robotsTTL, func(it frontier.Item) bool { return c.robotsAllow(h, it.URL) })
}

// robotsAllow says whether h's rules let rawURL be fetched, and notes it
// when they do not.
func (c *Crawler) robotsAllow(h *hostPolicy, rawURL string) bool {
	if h.rules == nil {
		return true
	}
	u, err := url.Parse(rawURL)
	if err != nil || h.rules.Allowed(u.RequestURI()) {
		return true
	}
	c.stats.RobotsDisallowed++
	c.roots.noteDisallowed(rawURL)
	if c.cfg.Shared != nil {
		c.cfg.Shared.Settled(rawURL, nil)
	}
	if c.budget.list() {
		c.disallowed = append(c.disallowed, rawURL)
	} else {
		c.disallowed = nil
	}
	if c.cfg.OnDisallowed != nil {
		c.out.call(func() { c.cfg.OnDisallowed(rawURL) })
	}
	return false
}

// unreachable says what RFC 9309 §2.3.1.4 makes of a robots.txt that could
// not be read.
func unreachable(tries int32) string {
	return fmt.Sprintf(" (after %d tries): unreachable, so nothing on the host is crawled (RFC 9309 §2.3.1.4)", tries)
}

// productToken is the name part of a User-Agent ("loopkit" of
// "loopkit/0.1 (+…)"), which robots.txt groups are matched against.
func productToken(userAgent string) string {
	token, _, _ := strings.Cut(userAgent, "/")
	token, _, _ = strings.Cut(token, " ")
	return token
}
