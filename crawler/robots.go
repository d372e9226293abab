package crawler

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

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

// runRobots is a host's first job: fetch its robots.txt, through the
// host's own politeness (it is a request to the host like any other, and
// Crawl-delay counts from it), and decide what the host's pages may do.
// Redirects and retries go back through the frontier as the same job.
func (c *Crawler) runRobots(y task.Yield, j job) verdict {
	h, it := j.host, j.item
	tries := it.tries + 1
	c.stats.RobotsFetches++
	req := http1.Request{URL: it.url, MaxBodyBytes: robotsMaxBytes, TruncateBody: true}
	trace := c.traceFor(&req)
	reply, err := c.client.Fetch(y, req)
	c.attempted(j, trace, reply, err)
	if errors.Is(err, future.ErrCancelled) {
		return verdict{retry: true, tries: it.tries} // an interrupt: nothing was decided
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
			// robots.txt spaces both, the longer one winning.
			h.server.pace.setDelay(min(d, c.cfg.MaxCrawlDelay))
			// Crawl-delay counts from this request, so the first page
			// waits too.
			c.front.holdUntil(h, c.loop.Time()-reply.Timings.Done+h.server.pace.gap())
		}
		c.robotsKnown(h, rules)
	case robots.FollowRedirect:
		return c.robotsRedirect(j, reply)
	case robots.Unavailable:
		c.robotsKnown(h, robots.AllowAll())
	default: // 5xx or 429, retried until MaxTries: the rules could say anything
		c.failHost(h, fmt.Sprintf("robots.txt: status %d%s", reply.StatusCode, unreachable(tries)), kindRobots)
	}
	return verdict{}
}

// robotsRedirect follows a robots.txt redirect (RFC 9309 §2.3.1.2: up to
// five, even to another host) by queueing the same job with the new
// target. Too many, or no usable Location, means there is no file.
func (c *Crawler) robotsRedirect(j job, reply *http1.Reply) verdict {
	from, _ := url.Parse(j.item.url)
	next, err := urlnorm.Resolve(from, reply.Header.Get("Location"))
	if err != nil || j.item.redirects <= 0 {
		c.robotsKnown(j.host, robots.AllowAll())
		return verdict{}
	}
	return verdict{retry: true, redirectTo: next.String()} // through the frontier again, tries anew
}

// robotsKnown applies rules to h: the URLs it queued meanwhile are
// screened, and its pages may go.
func (c *Crawler) robotsKnown(h *host, rules *robots.Rules) {
	h.rules, h.robots = rules, robotsKnown
	h.robotsUntil = c.loop.Time() + robotsTTL
	h.robotsItem = item{url: h.origin + "/robots.txt", redirects: robots.MaxRedirects} // for the next fetch
	before := h.queue.len()
	h.queue.filter(func(it item) bool { return c.robotsAllow(h, it.url) })
	c.front.queued -= before - h.queue.len()
}

// robotsAllow says whether h's rules let rawURL be fetched, and notes it
// when they do not.
func (c *Crawler) robotsAllow(h *host, rawURL string) bool {
	if h.rules == nil {
		return true
	}
	u, err := url.Parse(rawURL)
	if err != nil || h.rules.Allowed(u.RequestURI()) {
		return true
	}
	c.stats.RobotsDisallowed++
	c.disallowed = append(c.disallowed, rawURL)
	if c.cfg.OnDisallowed != nil {
		c.cfg.OnDisallowed(rawURL)
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
