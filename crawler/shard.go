package crawler

import (
	"hash/maphash"
	"net/url"

	"loopkit/crawler/urlnorm"
)

// shard is a Crawler's part in a Group: it owns the servers whose names
// hash to its index — their hosts' queues, gates, connections, robots.txt
// and seen URLs — and hands the links it finds for other servers to their
// owners, in batches, once per turn of its loop.
type shard struct {
	index    int
	group    *Group
	outbox   [][]link // by shard: links found here for servers another shard owns
	flushing bool     // a flush is scheduled for this turn of the loop
	sent     int      // links handed to other shards
	received int      // links other shards handed to this one

	lastHost  string // the authority owns last hashed, and its owner
	lastOwner int

	handed urlnorm.Seen // links handed over from here, each once: 12 bytes each
}

// link is a found URL on its way to the shard that owns its server.
type link struct {
	url              *url.URL
	redirects, depth int32
}

// ownerSeed makes every Group of a process hash alike: a server's owner
// depends only on its name and the number of loops.
var ownerSeed = maphash.MakeSeed()

// ownerOf is the shard that owns u's server. Hashing the authority, not
// the origin, keeps http and https of one server on one loop, so that the
// server's politeness gate (server.go) stays one gate.
func ownerOf(u *url.URL, shards int) int {
	return int(maphash.String(ownerSeed, authority(u)) % uint64(shards))
}

// shardIndex is the index of c's loop in its Group: 0 on its own.
func (c *Crawler) shardIndex() int {
	if c.shard == nil {
		return 0
	}
	return c.shard.index
}

// owns says whether this crawler may queue u itself: always, on its own;
// as a shard, if u's server is its. Most of a page's links point to the
// page's own server, so the last answer is kept: one string comparison
// instead of a hash, for each link.
func (c *Crawler) owns(u *url.URL) bool {
	s := c.shard
	if s == nil {
		return true
	}
	if u.Host != s.lastHost {
		s.lastHost, s.lastOwner = u.Host, ownerOf(u, len(s.outbox))
	}
	return s.lastOwner == s.index
}

// handOver puts u in the outbox of the shard that owns it. The batch
// counts as work from its first link on, so that the crawl cannot be over
// while links are on their way; the flush runs once the callbacks of this
// turn are done, so one CallSoonThreadsafe carries every link a turn found
// for a shard.
func (c *Crawler) handOver(u *url.URL, redirects, depth int) {
	s := c.shard
	// Each link is handed over once: the owner's seen set would drop it the
	// second time anyway, and a link a site repeats on every page would
	// otherwise cross between the loops as often as it is found.
	raw := u.String()
	if !s.handed.Add(raw) {
		return
	}
	if c.journaling() {
		// The link is journaled here, where the page that found it is:
		// its page is not over before the link is on disk. Each loop
		// journals it once; the owner drops duplicates at replay.
		c.queued(raw, int32(depth), int32(redirects))
	}
	to := ownerOf(u, len(s.outbox))
	if len(s.outbox[to]) == 0 {
		s.group.work.Add(1)
	}
	s.outbox[to] = append(s.outbox[to], link{url: u, redirects: int32(redirects), depth: int32(depth)})
	s.sent++
	if !s.flushing {
		s.flushing = true
		c.loop.CallSoon(c.flush)
	}
}

// flush sends each outbox to its shard's loop.
func (c *Crawler) flush() {
	s := c.shard
	s.flushing = false
	for to, batch := range s.outbox {
		if len(batch) == 0 {
			continue
		}
		s.outbox[to] = nil
		peer := s.group.crawlers[to]
		if err := peer.loop.CallSoonThreadsafe(func() { peer.receive(batch) }); err != nil {
			// The peer's loop is closed: it cannot be while the crawl runs,
			// since the crawl is not over while this batch counts as work.
			c.notice("crawler: links for another loop were lost: " + err.Error())
			s.group.settle()
		}
	}
}

// receive queues the links another shard found for this one's servers,
// through the filters only the owner can apply (seen, per-host caps).
func (c *Crawler) receive(batch []link) {
	c.shard.received += len(batch)
	for _, l := range batch {
		if reason := c.ownedFilter(l.url); reason != "" {
			c.stats.Filtered[reason]++
			continue
		}
		c.add(l.url, int(l.redirects), int(l.depth), false)
	}
	c.shard.group.settle() // after the enqueues: the shard is awake by now if it got work
}

// quiet is the frontier's word that this shard has nothing left (true),
// or has again (false).
func (c *Crawler) quiet(nothing bool) {
	if nothing {
		c.shard.group.settle()
	} else {
		c.shard.group.work.Add(1)
	}
}
