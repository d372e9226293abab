package crawler

import (
	"fmt"
	"net/url"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/robots"
)

// The one way in. A URL becomes a loop's to do in one place, enter,
// whichever way it came: a link this loop found (add), one another loop
// found (shard.go), one replayed from the journal (persist.go), one the
// fleet offers (shared.go). A URL that waited on disk comes back through
// screen (spill.go). A host learns its robots.txt in one place,
// learnRobots, and a server is held back in one, holdServer — whether
// this process heard it, the journal kept it or the fleet did. Only this
// file puts URLs in the frontier's queues (Push), gives a host its gate
// and opens it (Gate, Open), and moves a server's spacing or next start
// (SetDelay, HoldUntil): seam_test.go keeps it so. The frontier's verbs
// for what becomes of a job — Sent, Finish, Requeue, PushedBack, Failed —
// are called where the job is (crawler.go, fetch.go, politeness.go), and
// those for a host let go — Retire, Forget — where that is decided.

// hostPolicy is what the crawler decided of one host (an origin), beside
// what the frontier keeps of it: its robots.txt rules, whether it was
// given up and why, and how many of its URLs entered.
type hostPolicy struct {
	host        *frontier.Host
	authority   string        // its server: host and port
	rules       *robots.Rules // nil until robots.txt is known (or with robots.txt off)
	failure     string        // once set, why nothing more is fetched from it
	failureKind string        // the records' error_kind
	pages       int           // URLs that entered, for MaxPagesPerHost
}

// enter makes u this loop's to do: counted against its host's share
// (MaxPagesPerHost) and its path's (MaxQueryVariants), screened, and
// pushed on its host's queue — or, when the crawl's queue is over its
// memory, written to disk until the host's turn (spill.go). A root counts
// towards its host's share, but no cap refuses it. A URL found here
// (found) is told to the extensions (queued) once past the caps, before
// it can be recorded or handed out: a journal writes down the URLs that
// are to do, not those a cap refuses. It reports why it refused u, or "".
func (c *Crawler) enter(u *url.URL, it frontier.Item, found bool) string {
	h := c.host(u)
	if reason := c.capped(u, h); reason != "" && !c.isRoot(it.URL) {
		c.stats.Filtered[reason]++
		c.ext.dropped(it.URL)
		return reason
	}
	if found {
		c.ext.queued(it)
	}
	h.pages++
	if u.RawQuery != "" {
		c.variants[pathKey(u)]++
	}
	if c.screen(h, it) && !c.overflow.takes(h, it) {
		c.push(h, it)
	}
	return ""
}

// capped says why u's host, or its path, has had its share, or "".
func (c *Crawler) capped(u *url.URL, h *hostPolicy) string {
	if c.cfg.MaxPagesPerHost > 0 && h.pages >= c.cfg.MaxPagesPerHost {
		c.notice(fmt.Sprintf("%s: Config.MaxPagesPerHost (%d) reached, more of its URLs are not followed", h.host.Origin(), c.cfg.MaxPagesPerHost))
		return filterHostPages
	}
	if u.RawQuery != "" && c.cfg.MaxQueryVariants > 0 && c.variants[pathKey(u)] >= c.cfg.MaxQueryVariants {
		c.notice(fmt.Sprintf("%s: more than %d different queries, more are not followed (Config.MaxQueryVariants; a calendar or a search trap?)",
			pathKey(u), c.cfg.MaxQueryVariants))
		return filterQueryVariant
	}
	return ""
}

// isRoot says whether raw is one of this run's roots, which count
// towards their host's share but pass no filter and no cap: the operator
// asked for them.
func (c *Crawler) isRoot(raw string) bool { return c.rootSet[raw] }

// screen says whether it may wait in h's queue: not if h was given up (it
// is recorded, with why), nor if h's robots.txt, known by now, refuses it.
func (c *Crawler) screen(h *hostPolicy, it frontier.Item) bool {
	switch {
	case h.failure != "":
		c.recordHostFailure(h, it)
		return false
	case !c.robotsAllow(h, it.URL):
		return false
	}
	return true
}

// push puts it at the back of h's queue, and lets dispatch hand it out.
func (c *Crawler) push(h *hostPolicy, it frontier.Item) {
	c.front.Push(h.host, it, c.loop.Time())
	c.dispatch()
}

// host is u's host, created on first sight: its robots.txt is its gate,
// the first job the frontier hands out for it.
func (c *Crawler) host(u *url.URL) *hostPolicy {
	o := origin(u)
	h := c.hosts[o]
	if h == nil {
		h = &hostPolicy{host: c.front.Host(o, authority(u)), authority: authority(u)}
		c.hosts[o] = h
		if !c.cfg.NoRobots {
			c.front.Gate(h.host, frontier.Item{URL: o + "/robots.txt", Redirects: robots.MaxRedirects})
		}
	}
	return h
}

// learnRobots gives h its robots.txt, body (nil: there is none, and
// everything is allowed), to be used until until: its rules; its
// Crawl-delay, at most MaxCrawlDelay, which spaces every request to its
// server from the last one sent; and its gate opened, with the URLs it
// queued meanwhile screened by the rules. Read here (fetchRobots),
// replayed from the journal or kept by the fleet, a robots.txt is learnt
// here alone.
func (c *Crawler) learnRobots(h *hostPolicy, body []byte, until time.Time) {
	if c.cfg.NoRobots {
		return
	}
	h.rules = robots.Parse(body, productToken(c.cfg.UserAgent))
	if d, ok := h.rules.CrawlDelay(); ok {
		// The server's delay: a Crawl-delay in either scheme's robots.txt
		// spaces both, the longer one winning.
		c.front.SetDelay(h.host, min(d, c.cfg.MaxCrawlDelay))
	}
	c.front.Open(h.host, c.loopTime(until), func(it frontier.Item) bool { return c.robotsAllow(h, it.URL) })
	c.dispatch()
}

// holdServer holds h's server back until until: nothing not yet sent to
// it leaves before then, whichever of its origins it is for. A
// Retry-After heard here (judge), replayed or kept by the fleet is held
// here alone.
func (c *Crawler) holdServer(h *hostPolicy, until time.Time) {
	c.front.HoldUntil(h.host, c.loopTime(until))
}

// restarted holds every server this loop knows for its spacing from now
// (Config.Delay, a Crawl-delay): a crawl that goes on after a stop does
// not know when its last request to a server left — a moment ago,
// perhaps — so it counts as if one just had. A crash loop, a service
// manager restarting the crawl every few seconds, stays as polite as the
// crawl. Retry-After holds, replayed, stand beside.
func (c *Crawler) restarted() {
	for _, h := range c.hosts {
		c.holdServer(h, time.Now().Add(c.front.Gap(h.host)))
	}
}

// loopTime is t on the loop's clock, which the frontier keeps. The
// journal and the fleet keep wall-clock times, which mean the same in the
// next process.
func (c *Crawler) loopTime(t time.Time) time.Duration { return c.loop.Time() + time.Until(t) }

// authority is what a server is keyed by: the host and port of u, which
// urlnorm has written without the scheme's default port.
func authority(u *url.URL) string { return u.Host }

// origin is the scheme and authority of u: what a host is keyed by.
func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// pathKey is what MaxQueryVariants counts queries under.
func pathKey(u *url.URL) string { return origin(u) + u.EscapedPath() }
