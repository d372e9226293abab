package crawler

import (
	"fmt"
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
// Drop, Drain, NextStarts and End, below.
type sharedCrawl struct {
	c *Crawler
	s Shared
	w *writer // the writer of Config.Output, if there is one: a page is settled once its line is written
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

// vetSends asks the fleet, before each request goes out, whether this
// process still holds the host: a process that lost its lease, or woke
// from a freeze past it, sends nothing more there.
func (f sharedCrawl) vetSends(h *frontier.Host) func() bool {
	origin := h.Origin()
	return func() bool { return f.s.MaySend(origin) }
}

// As an extension:

func (f sharedCrawl) started()             { f.s.Start(f.c) }
func (f sharedCrawl) queued(frontier.Item) {} // handOver tells the fleet
func (f sharedCrawl) sent(string)          {}
func (f sharedCrawl) dropped(url string)   { f.s.Settled(url, nil) }
func (f sharedCrawl) jobEnds(task.Yield)   {}
func (f sharedCrawl) abandon() error       { return nil }
func (f sharedCrawl) finish(y task.Yield) error {
	return f.s.Finish(y)
}

// recorded settles a page with the fleet once its line is written, if
// it has one: settled in Redis and missing from the output, a page would
// be lost to a kill -9 between the two, since no process fetches a
// settled page again.
func (f sharedCrawl) recorded(r *Record) {
	if f.w == nil {
		f.s.Settled(r.URL, r)
		return
	}
	f.w.afterWritten(func() { f.s.Settled(r.URL, r) })
}

func (f sharedCrawl) robotsLearnt(origin string, body []byte, until time.Time) {
	f.s.Robots(origin, body, until)
}

func (f sharedCrawl) serverHeld(authority string, until time.Time) { f.s.Hold(authority, until) }

// Offer makes a URL the fleet gives this process to fetch its to do. It
// passes no filter (the process that found it applied them) and no seen
// set (the fleet's is the crawl's), but it enters as any URL does, its
// host's robots.txt applied. (Its host's share, MaxPagesPerHost and
// MaxQueryVariants, the fleet counts for the whole crawl: a process's own
// count would start again from nothing at each handover.)
func (c *Crawler) Offer(raw string, depth, redirects int32) {
	u, err := url.Parse(raw)
	if err != nil {
		c.ext.dropped(raw) // unreachable: URLs are normalized
		return
	}
	c.enter(u, frontier.Item{URL: raw, Redirects: redirects, Depth: depth}, false)
}

// KnowRobots gives a host the robots.txt the fleet kept for it, until
// until: the host's gate is open, as if it had been fetched here. Its
// server's spacing counts from now, as from a request: the process that
// fetched it may have sent a request a moment ago, and this one cannot
// know when.
func (c *Crawler) KnowRobots(origin string, body []byte, until time.Time) {
	if u, err := url.Parse(origin + "/"); err == nil {
		h := c.host(u)
		c.learnRobots(h, body, until)
		if gap := c.front.Gap(h.host); gap > 0 {
			c.holdServer(h, time.Now().Add(gap))
		}
	}
}

// HoldServer holds back a server, as a Retry-After heard by another
// process asked, or until the next start its last holder allowed it.
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
			c.front.Forget(h.host, nil)
		}
	}
	for f, j := range c.fetches {
		if drop(j.Host.Origin()) {
			f.Cancel()
		}
	}
	c.dispatch()
}

// Drain forgets the queued URLs of every host whose origin drain says yes
// to, and tells forgotten of each; its requests on the wire go on, and
// are recorded as usual. The fleet drains a shard it gives back to
// another process: what is in flight ends here, the rest goes back to
// the fleet's queue for the next holder.
func (c *Crawler) Drain(drain func(origin string) bool, forgotten func(url string)) {
	for origin, h := range c.hosts {
		if drain(origin) {
			c.front.Forget(h.host, func(it frontier.Item) { forgotten(it.URL) })
		}
	}
	c.dispatch()
}

// NextStarts are the times before which the servers of the hosts of
// yes to may not be sent a request, by their authority, where that time
// is still to come: their last request plus their spacing, or a
// Retry-After. The fleet gives them to a shard's next holder.
func (c *Crawler) NextStarts(of func(origin string) bool) map[string]time.Time {
	out := map[string]time.Time{}
	now := c.loop.Time()
	for origin, h := range c.hosts {
		if at := c.front.NextStart(h.host); at > now && of(origin) {
			t := time.Now().Add(at - now)
			if t.After(out[h.authority]) {
				out[h.authority] = t
			}
		}
	}
	return out
}

// End ends a shared crawl: the fleet says nothing is left anywhere, or
// that it cannot go on (its Finish says why).
func (c *Crawler) End() { c.end() }

// Politeness is how a crawl treats each server and each host, from its
// Config with the defaults filled in: what every process of a shared
// crawl must agree on, since each works some of its hosts.
type Politeness struct {
	PerHost          int           `json:"per_host"`
	Delay            time.Duration `json:"delay"`
	Jitter           bool          `json:"jitter,omitempty"`
	Agent            string        `json:"agent"` // the User-Agent's product token: robots.txt's groups name it
	MaxCrawlDelay    time.Duration `json:"max_crawl_delay"`
	MaxRetryAfter    time.Duration `json:"max_retry_after"`
	MaxTries         int           `json:"max_tries"`
	BackoffBase      time.Duration `json:"backoff"`
	MaxPagesPerHost  int           `json:"max_pages_per_host,omitempty"`
	MaxQueryVariants int           `json:"max_query_variants"`
}

// PolitenessOf is cfg's politeness.
func PolitenessOf(cfg Config) Politeness {
	d := cfg.withDefaults()
	return Politeness{PerHost: d.PerHost, Delay: d.Delay, Jitter: d.Jitter, Agent: productToken(d.UserAgent),
		MaxCrawlDelay: d.MaxCrawlDelay, MaxRetryAfter: d.MaxRetryAfter, MaxTries: d.MaxTries,
		BackoffBase: d.BackoffBase, MaxPagesPerHost: max(d.MaxPagesPerHost, 0), MaxQueryVariants: max(d.MaxQueryVariants, 0)}
}

// Differences says how b differs from p, one phrase per field, naming the
// Config field: "Config.PerHost was 2, now 8".
func (p Politeness) Differences(b Politeness) []string {
	var out []string
	note := func(field string, was, now any) {
		if was != now {
			out = append(out, fmt.Sprintf("Config.%s was %v, now %v", field, was, now))
		}
	}
	note("PerHost", p.PerHost, b.PerHost)
	note("Delay", p.Delay, b.Delay)
	note("Jitter", p.Jitter, b.Jitter)
	note("UserAgent's product token", p.Agent, b.Agent)
	note("MaxCrawlDelay", p.MaxCrawlDelay, b.MaxCrawlDelay)
	note("MaxRetryAfter", p.MaxRetryAfter, b.MaxRetryAfter)
	note("MaxTries", p.MaxTries, b.MaxTries)
	note("BackoffBase", p.BackoffBase, b.BackoffBase)
	note("MaxPagesPerHost", p.MaxPagesPerHost, b.MaxPagesPerHost)
	note("MaxQueryVariants", p.MaxQueryVariants, b.MaxQueryVariants)
	return out
}
