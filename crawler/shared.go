package crawler

import (
	"net/url"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/robots"
	"loopkit/task"
)

// Shared is a crawl shared with other processes, through a server they
// all reach (package crawler/fleet, on Redis). Its methods are called on
// the crawler's loop; it calls the Crawler's Offer, KnowRobots,
// HoldServer, Drop and End, on the loop too.
type Shared interface {
	// Start is called as Crawl starts, before the roots are found.
	Start(c *Crawler)
	// Found hears of each URL that passed this crawler's filters and that
	// it had not seen: a root, a link, a redirect's target. It is not
	// queued here; the fleet queues it where it belongs, and offers it to
	// the process whose it is to fetch.
	Found(url string, depth, redirects int32)
	// Settled hears that an offered URL reached its end: its record, or
	// nil if it was dropped unfetched (robots.txt disallowed it).
	Settled(url string, r *Record)
	// Robots and Hold hear of politeness state the fleet keeps with the
	// host, for whichever process works it next.
	Robots(origin string, body []byte, until time.Time)
	Hold(authority string, until time.Time)
	// Finish is called as Crawl ends, in its task, when no job runs any
	// more: the fleet writes what it has and gives its hosts back.
	Finish(y task.Yield)
}

// Offer queues a URL the fleet gives this process to fetch. It passes no
// filter (the process that found it applied them) but robots.txt, and no
// seen set (the fleet's is the crawl's).
func (c *Crawler) Offer(raw string, depth, redirects int32) {
	u, err := url.Parse(raw)
	if err != nil {
		c.cfg.Shared.Settled(raw, nil) // unreachable: URLs are normalized
		return
	}
	h := c.host(u)
	it := frontier.Item{URL: raw, Redirects: redirects, Depth: depth}
	switch {
	case h.failure != "":
		c.recordHostFailure(h, it)
	case h.rules != nil && !c.robotsAllow(h, raw):
	default:
		c.front.Push(h.host, it, c.loop.Time())
		c.dispatch()
	}
}

// KnowRobots applies a host's robots.txt kept by the fleet, until until:
// the host's gate is open, as if it had been fetched here.
func (c *Crawler) KnowRobots(origin string, body []byte, until time.Time) {
	u, err := url.Parse(origin + "/")
	if err != nil || c.cfg.NoRobots {
		return
	}
	h := c.host(u)
	h.rules = robots.Parse(body, productToken(c.cfg.UserAgent))
	if d, ok := h.rules.CrawlDelay(); ok {
		c.front.SetDelay(h.host, min(d, c.cfg.MaxCrawlDelay))
	}
	c.front.Open(h.host, c.loop.Time()+time.Until(until), func(it frontier.Item) bool { return c.robotsAllow(h, it.URL) })
	c.dispatch()
}

// HoldServer holds back a server, as a Retry-After heard by another
// process asked.
func (c *Crawler) HoldServer(authority string, until time.Time) {
	if u, err := url.Parse("http://" + authority + "/"); err == nil {
		c.front.HoldUntil(c.host(u).host, c.loop.Time()+time.Until(until))
	}
}

// Drop gives up, for now, every host whose origin drop says yes to: its
// queued URLs are forgotten, and its requests on the wire cancelled. The
// fleet drops the hosts of a shard whose lease it lost: their URLs are
// the next holder's, still in the fleet's queue.
func (c *Crawler) Drop(drop func(origin string) bool) {
	for origin, h := range c.hosts {
		if drop(origin) {
			c.front.Forget(h.host)
		}
	}
	for f, j := range c.fetches {
		if drop(j.Host.Origin()) {
			f.Cancel()
		}
	}
	c.dispatch()
}

// End ends a shared crawl: the fleet says nothing is left anywhere.
func (c *Crawler) End() { c.finishShard() }
