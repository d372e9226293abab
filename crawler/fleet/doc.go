// Package fleet shares one crawl between processes, on any machines,
// through one Redis server: crawl --redis URL --crawl_id NAME. It sits
// beside crawler/journal, under package crawler (it is a crawler.Shared),
// and speaks to Redis with crawler/resp, on the crawler's own loop.
//
// # What lives in Redis
//
// Every key of a crawl starts with loopkit:NAME:.
//
//	settings      the crawl's roots, scope and filters, and its number of shards
//	seen          a set of every URL found: dedup across processes
//	q:N, p:N      shard N's queue of URLs to fetch, and its processing list
//	lease:N       who holds shard N, with which fencing token; it expires
//	fence:N       the last token given for shard N
//	robots:N      robots.txt of shard N's hosts; hold:N, their Retry-After
//	pending       URLs queued or taken, over every shard: 0 is the end
//	done, tally   URLs settled, and the counts of the crawl's records
//	procs         the processes alive, by their last heartbeat
//
// # Why hosts are the unit
//
// Politeness is per server: its spacing, its limit in flight, its
// Crawl-delay and Retry-After. So a server belongs to exactly one shard (a
// hash of its host and port), and a shard is worked by one process at a
// time: the one holding its lease. Whatever the number of processes, a
// host sees one crawler. A process that crawled a host's URLs in
// parallel with another would be polite alone and rude together; that is
// what a shared queue without leases (scrapy-redis's) does.
//
// # Leases and fencing
//
// A lease is a key that expires. Its holder renews it three times per
// life; a process that dies stops renewing, and after one lease another
// takes the shard. A process that cannot renew — Redis unreachable, a
// long pause — stops working the shard itself a quarter of a lease before
// the key expires: its queued URLs are forgotten and its requests on the
// wire cancelled. So the old holder is quiet before the new one may
// start, and politeness holds across a handover.
//
// Each lease comes with a fencing token, a number that only grows. Every
// script that changes a shard — take, settle, keep — first checks that
// the caller holds the lease with that token. A process that lost its
// lease and wakes up late (a stopped VM, a GC pause, a partition) is
// refused: it cannot settle a URL the new holder took back, nor overwrite
// its hosts' state.
//
// # At-least-once
//
// A URL taken moves, atomically, from the shard's queue to its processing
// list. It leaves the list only when settled, after the links its page
// led to are in the seen set and the queues. If its process dies, the
// next holder of the shard finds it in the processing list and puts it
// back at the front of the queue. So no URL is lost, and a URL may be
// fetched twice: at most what a dead process had taken and not settled,
// its window. The tally counts them as put_back, and a page settled twice
// as a duplicate.
//
// # The end
//
// pending counts the URLs queued or taken, everywhere. A link is counted
// before the page that found it is settled, so pending reaches zero only
// when nothing is left anywhere. Every process sees it, and ends with its
// own report, its own JSON Lines, and the fleet's tallies.
//
// # Why pipelining matters
//
// One connection carries every command of a process, each command's reply
// a future. Commands given in one turn of the loop leave in one write:
// the links a turn found are one command, whatever their number, and a
// heartbeat, three renewals and a take cost one round trip together.
package fleet
