// Package journal keeps a crawl that survives a stop: a state directory
// (crawl --state DIR) holding what a crawl found and what it did, from
// which the same command, run again, goes on where it was — after Ctrl-C,
// SIGTERM or kill -9. It also writes the crawl's JSON Lines (crawl -o),
// which on a resumed crawl is the record of what is done.
//
// It sits under package crawler, beside crawler/frontier, and does file
// I/O only: blocking calls, made from the crawler's executor goroutines,
// never from a loop. A disk file is not pollable — epoll says a regular
// file is always ready — so an event loop hands its writes to other
// threads, as asyncio's aiofiles and libuv's fs calls do. The crawler
// gathers a turn's entries into one batch and hands the batch over; a
// worker's job is not over until the batch with its page is written.
//
// # What the directory holds
//
//	crawl.json   the crawl's settings: roots, scope, filters, -o; a resumed
//	             crawl must have the same, or be told it may differ
//	journal      one entry per line, appended as the crawl goes
//	lock         held (flock) by the process working on the directory
//
// An entry is a line of tab-separated fields ending in a CRC-32 of the
// rest, so that a line torn by a crash, or a tail of zeros left by a
// filesystem, is recognised:
//
//	Q  depth  redirects  url       a URL found and queued (a root too)
//	D  url                         a URL done (kept only without -o: with
//	                               -o, the JSON Lines file is the record)
//	R  origin  until  robots.txt   a host's robots.txt, base64, and until
//	                               when (Unix ms) it may be used
//	H  authority  until            a Retry-After hold on a server (Unix ms)
//
// # Replay
//
// On start the journal is read twice. The first pass collects what is
// done (D entries, or the URLs of the whole lines in the -o file) into a
// set of hashes, and the latest robots.txt and hold of each host. The
// second pass hands out every queued URL that is not done, once each, in
// the order it was found. Seen is then queued ∪ done; to do is queued −
// done. A torn or corrupt tail is cut at the last whole entry, with a
// notice; so is a torn last line of the -o file. A damaged entry with
// whole ones after it (a damaged disk, not a stop) is skipped with a
// notice, and the entries after it are kept.
//
// # What a stop may cost
//
// Entries are written with write(2) in batches, one per turn of the loop
// that made them, and a page's job ends only once its batch is written.
// So a kill -9 (or any crash of the process) loses nothing handed to the
// kernel: at most the pages in flight, --max_tasks of them, are fetched
// once more. Every second, and at the end, the files are fsync'd: a power
// cut may lose the last second of entries, and those pages are fetched
// again. A full disk stops the crawl with a clear error; what was written
// stays consistent, the torn tail being cut at the next start.
//
// # What lies beyond
//
// The journal only grows while a crawl runs. Duplicate entries (a URL
// found on several loops) are dropped at replay, and a journal whose
// dead entries dominate is rewritten at start (Compact). A crawl of
// hundreds of millions of pages would also keep its per-host queues on
// disk rather than in memory, as Heritrix does; here the queue is in
// memory, about 93 bytes per queued URL, and the seen set 12 bytes per URL.
package journal
