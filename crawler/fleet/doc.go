// Package fleet shares one crawl between processes, on any machines,
// through one Redis server (7.0 or later): crawl --redis URL --crawl_id
// NAME. It sits beside crawler/journal, under package crawler (it is a
// crawler.Shared), and speaks to Redis with crawler/resp, on the
// crawler's own loop.
//
// # What lives in Redis
//
// Every key of a crawl starts with loopkit:NAME:.
//
//	settings, instance  the crawl's roots, scope, filters, politeness and number
//	                    of shards; and a random name it was created with
//	seen                a set of every URL found: dedup across processes
//	q:N, p:N            shard N's queue of URLs to fetch, and the set of those its
//	                    holder took and has not settled
//	lease:N, fence:N    who holds shard N, with which fencing token (it expires);
//	                    the last token given
//	robots:N, hold:N    the robots.txt of shard N's hosts; its servers' Retry-After
//	                    and next starts
//	pages, variants     URLs per host and queries per path, for the whole crawl
//	pending             URLs queued or taken, over every shard: 0 is the end
//	tally               the counts of the crawl's records
//	procs, step:OWNER   the processes alive, by their last heartbeat; each one's
//	                    last step
//
// # Why hosts are the unit
//
// Politeness is per server: its spacing, its limit in flight, its
// Crawl-delay and Retry-After. So a server belongs to exactly one shard (a
// hash of its host and port), and a shard is worked by one process at a
// time: the one holding its lease. Whatever the number of processes, a
// host sees one crawler. A process that crawled a host's URLs in
// parallel with another would be polite alone and rude together; that is
// what a shared queue without leases (scrapy-redis's) does. For the same
// reason the politeness settings are the crawl's: a process that joins
// with others is refused, with both values.
//
// # Leases and fencing
//
// A lease is a key that expires. Its holder renews it three times per
// life, in its heartbeat; a process silent for a lease is dead, and once
// its leases expire the others take its shards. A holder that cannot
// renew — Redis unreachable, a long pause — stops working the shard a
// quarter of a lease before the key expires, by its own clock, which it
// checks before every request it sends: its queued URLs are forgotten
// and its requests on the wire cancelled. So the old holder is quiet
// before the new one may start, and politeness holds across a handover,
// even for a process frozen past its lease that wakes up with requests
// ready to go. A shard given back to even the fleet out is drained
// instead: its queued URLs go back, its requests on the wire finish, and
// its servers' next starts go with it to the next holder.
//
// Each lease comes with a fencing token, a number that only grows. Every
// script that changes a shard first checks that the caller holds the
// lease with that token. A process that lost its lease and wakes up late
// is refused: it cannot settle a URL the new holder took back, nor
// overwrite its hosts' state.
//
// # At-least-once
//
// A URL taken moves, atomically, from the shard's queue to its processing
// set. It leaves the set only when settled, after the links its page led
// to are in the seen set and the queues, and after its line is written to
// the process's output. If its process dies, the next holder of the shard
// finds it in the processing set and puts it back at the front of the
// queue. So no URL is lost, and a URL may be fetched twice: at most what a
// dead process had taken and not settled, its window. The tally counts
// them as put_back.
//
// The reply to a command may be lost after Redis ran it. Every write is
// safe to make twice but one — taking URLs — so a process's writes leave
// in steps, each numbered; a step sent again runs once, and answers with
// what the process holds of each shard, so that what a lost reply carried
// is not stranded.
//
// # The crawl knows itself
//
// A crawl is created with a random instance name, and every script checks
// it. A Redis that comes back without the crawl (restarted without
// persistence, failed over to an empty replica) answers GONE, and every
// process stops with an error that says so, never a normal end with
// pages missing. A write Redis refuses (out of memory) stops a process
// too, with Redis's words: scripts are flagged so that Redis refuses them
// whole, and nothing is half-written.
//
// # The end
//
// pending counts the URLs queued or taken, everywhere. A link is counted
// before the page that found it is settled, so pending reaches zero only
// when nothing is left anywhere. Every process sees it, and ends with its
// own report, its own JSON Lines, and the fleet's tallies.
//
// # What a page costs Redis
//
// One connection carries every command of a process, each command's reply
// a future. A turn's links, settles, politeness state and takes are one
// step: one command, whose calls inside Redis take whole batches. So a
// page costs a share of a step, and the heartbeat one command per third
// of a lease, whatever the number of shards (docs/fleet.md has the
// figures).
package fleet
