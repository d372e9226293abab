package crawler

import (
	"hash/maphash"
	"net/url"

	"loopkit/crawler/frontier"
)

// shard is a Crawler's part in a Group, and its peers (extension.go): it
// owns the servers whose names hash to its index — their hosts' queues,
// gates, connections, robots.txt and seen URLs — and hands the links it
// finds for other servers to their owners, in batches, once per turn of
// its loop.
type shard struct {
	c        *Crawler
	index    int
	group    *Group
	outbox   [][]link // by shard: links found here for servers another shard owns
	flushing bool     // the outboxes leave at the end of this turn
	quiet    bool     // it told the Group it had nothing left
	sent     int      // links handed to other shards
	received int      // links other shards handed to this one

	lastHost  string // the authority owns last hashed, and its owner
	lastOwner int
}

// link is a found URL on its way to the shard that owns its server.
type link struct {
	url *url.URL
	it  frontier.Item
}

// ownerSeed makes every Group of a process hash alike: a server's owner
// depends only on its name and the number of loops.
var ownerSeed = maphash.MakeSeed()

// ownerOf is the shard that owns u's server. Hashing the authority, not
// the origin, keeps http and https of one server on one loop, so that the
// server's politeness stays one.
func ownerOf(u *url.URL, shards int) int {
	return int(maphash.String(ownerSeed, authority(u)) % uint64(shards))
}

// roots are the roots whose servers this shard owns: each root is added
// once, by its owner.
func (s *shard) roots(all []*url.URL) []*url.URL {
	var mine []*url.URL
	for _, u := range all {
		if s.owns(u) {
			mine = append(mine, u)
		}
	}
	return mine
}

// owns says whether u's server is this shard's. Most of a page's links
// point to the page's own server, so the last answer is kept: one string
// comparison instead of a hash, for each link.
func (s *shard) owns(u *url.URL) bool {
	if u.Host != s.lastHost {
		s.lastHost, s.lastOwner = u.Host, ownerOf(u, len(s.outbox))
	}
	return s.lastOwner == s.index
}

// handOver puts u in the outbox of the shard that owns it. The batch
// counts as work from its first link on, so that the crawl cannot be over
// while links are on their way; the outboxes leave once the callbacks of
// this turn are done, so one CallSoonThreadsafe carries every link a turn
// found for a shard. Each link is handed over once: the finder's seen set
// (add) keeps it from crossing again each time a page repeats it.
func (s *shard) handOver(u *url.URL, it frontier.Item) {
	to := ownerOf(u, len(s.outbox))
	if len(s.outbox[to]) == 0 {
		s.group.work.Add(1)
	}
	s.outbox[to] = append(s.outbox[to], link{url: u, it: it})
	s.sent++
	if !s.flushing {
		s.flushing = true
		s.c.loop.CallSoon(s.sendOutboxes)
	}
}

// sendOutboxes sends each outbox to its shard's loop.
func (s *shard) sendOutboxes() {
	s.flushing = false
	for to, batch := range s.outbox {
		if len(batch) == 0 {
			continue
		}
		s.outbox[to] = nil
		peer := s.group.shards[to]
		if err := peer.c.loop.CallSoonThreadsafe(func() { peer.receive(batch) }); err != nil {
			// The peer's loop is closed: it cannot be while the crawl runs,
			// since the crawl is not over while this batch counts as work.
			s.c.notice("crawler: links for another loop were lost: " + err.Error())
			s.group.settle()
		}
	}
}

// receiveSlice is the most links a loop takes in from a batch in one
// callback. A turn can find thousands of links for another loop; taken
// in at once, they would hold that loop's every connection up for tens
// of milliseconds. The rest wait for the next turn, after the I/O.
const receiveSlice = 256

// receive takes in the links another shard found for this one's servers:
// those new to this shard enter its frontier (todo.go), a slice per turn.
func (s *shard) receive(batch []link) {
	n := min(len(batch), receiveSlice)
	s.received += n
	for _, l := range batch[:n] {
		if s.c.seen.addHandedOver(l.it) { // or later, from disk (seen.go)
			s.c.enter(l.url, l.it, false) // its finder told its extensions
		}
	}
	if n < len(batch) {
		s.c.loop.CallSoon(func() { s.receive(batch[n:]) })
		return
	}
	s.c.checkEmpty() // links that wait for the seen set's answer are work too, though nothing entered
	s.group.settle() // after the enqueues: the shard is awake by now if it got work
}

// vetSends: a loop of a Group owns its servers for the whole crawl.
func (s *shard) vetSends(*frontier.Host) func() bool { return nil }

// idle is the frontier's word that this shard has nothing left (true), or
// has again (false). The Group ends the crawl when every shard is idle
// and no link is on its way.
func (s *shard) idle(nothing bool) {
	if nothing == s.quiet {
		return
	}
	s.quiet = nothing
	if nothing {
		s.group.settle()
	} else {
		s.group.work.Add(1)
	}
}
