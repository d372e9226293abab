package crawler

import (
	"net/url"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/task"
)

// sharedCrawl adapts a Shared crawl (Config.Shared; package crawler/fleet) to
// the crawler's seam: it is the crawl's peers, since every URL this
// process finds goes to the fleet, which offers it to whichever process
// holds its host; and it is an extension, since the fleet keeps what the
// crawl did — settled pages, robots.txt, Retry-After — for the other
// processes. The fleet calls back with Offer, KnowRobots, HoldServer,
// Drop and End, below.
type sharedCrawl struct {
	c *Crawler
	s Shared
}

// As the crawl's peers:

func (f sharedCrawl) roots(all []*url.URL) []*url.URL { return all } // the fleet's seen set keeps one of each
func (f sharedCrawl) owns(*url.URL) bool              { return false }

func (f sharedCrawl) handOver(u *url.URL, it frontier.Item) {
	f.s.Found(it.URL, it.Depth, it.Redirects)
}

// idle: this process having nothing left is not the end, as the fleet
// may offer more. It ends when the fleet says (End), or when it was
// stopped here and nothing runs.
func (f sharedCrawl) idle(nothing bool) {
	if nothing && f.c.front.Stopped() {
		f.c.end()
	}
}

// As an extension:

func (f sharedCrawl) started()             { f.s.Start(f.c) }
func (f sharedCrawl) queued(frontier.Item) {} // handOver tells the fleet
func (f sharedCrawl) sent(string)          {}
func (f sharedCrawl) recorded(r *Record)   { f.s.Settled(r.URL, r) }
func (f sharedCrawl) dropped(url string)   { f.s.Settled(url, nil) }
func (f sharedCrawl) jobEnds(task.Yield)   {}
func (f sharedCrawl) abandon() error       { return nil }
func (f sharedCrawl) finish(y task.Yield) error {
	f.s.Finish(y)
	return nil
}

func (f sharedCrawl) robotsLearnt(origin string, body []byte, until time.Time) {
	f.s.Robots(origin, body, until)
}

func (f sharedCrawl) serverHeld(authority string, until time.Time) { f.s.Hold(authority, until) }

// Offer makes a URL the fleet gives this process to fetch its to do. It
// passes no filter (the process that found it applied them) and no seen
// set (the fleet's is the crawl's), but it enters as any URL does: its
// host's share counted, robots.txt applied.
func (c *Crawler) Offer(raw string, depth, redirects int32) {
	u, err := url.Parse(raw)
	if err != nil {
		c.ext.dropped(raw) // unreachable: URLs are normalized
		return
	}
	c.enter(u, frontier.Item{URL: raw, Redirects: redirects, Depth: depth})
}

// KnowRobots gives a host the robots.txt the fleet kept for it, until
// until: the host's gate is open, as if it had been fetched here.
func (c *Crawler) KnowRobots(origin string, body []byte, until time.Time) {
	if u, err := url.Parse(origin + "/"); err == nil {
		c.learnRobots(c.host(u), body, until)
	}
}

// HoldServer holds back a server, as a Retry-After heard by another
// process asked.
func (c *Crawler) HoldServer(authority string, until time.Time) {
	if u, err := url.Parse("http://" + authority + "/"); err == nil {
		c.holdServer(c.host(u), until)
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
func (c *Crawler) End() { c.end() }
