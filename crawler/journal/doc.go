// Package journal keeps a crawl that survives a stop: a state directory
// (crawl --state DIR) holding what a crawl found and what it did, from
// which the same command, run again, goes on where it was — after Ctrl-C,
// SIGTERM, kill -9 or a power cut. It also writes the crawl's JSON Lines
// (crawl -o), and says which of its lines are the crawl's record of what
// is done.
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
//	crawl.json   the crawl's settings (roots, scope, filters, -o) and the
//	             key its seen set is hashed with; a run with other
//	             settings is refused, or told they differ
//	journal.N    one entry per line, appended as the crawl goes
//	snapshot.N   what was left after journal.N: the queue, robots.txt,
//	seen.N       holds, counts; the hashes of every URL seen, sorted
//	done         the O entries the snapshots folded away: read only when
//	             -o turns out shorter than a snapshot vouched for
//	damaged/     damaged bytes a start found, copied aside
//	lock         held (flock) by the process working on the directory
//
// An entry is a line of tab-separated fields ending in a CRC-32 of the
// rest, so that a line torn by a crash, or zeros left by a power cut, are
// recognised:
//
//	Q  depth  redirects  url        a URL found and queued (a root too)
//	S  url                          a page's request went on the wire
//	O  from  to  crc  (depth url)…  -o's bytes from..to, whose CRC-32 is
//	                                crc, hold these URLs' lines
//	D  url                          a URL done, with no -o file to say so
//	R  origin  until  robots.txt    a host's robots.txt, base64, and until
//	                                when (Unix ms) it may be used
//	H  authority  until             a Retry-After hold on a server (Unix ms)
//	X  output  new                  a start: -o held this many bytes, all
//	                                vouched for (new: another file)
//	E                               the crawl ended: nothing left to do
//	U  depth  redirects  url        a URL done is to do again: its line in
//	                                -o was lost below a snapshot
//
// # One source of truth for what is done
//
// The journal is. A page is done when an entry says so — an O entry for
// its line in -o, or a D entry — and every entry before it is whole (see
// log.go): its links' Q entries come before it, so they are whole too.
// Two files synced one after the other are not ordered on disk: after a
// power cut, -o may hold lines the journal lost, or the journal entries
// whose lines -o lost. Neither counts a page done without its links: -o
// lines the journal does not vouch for, or that do not match the CRC it
// vouched for them with, are cut at the next start, and their pages are
// fetched again. So any stop — and any truncation or zeroing of the
// journal, and of -o past what the last snapshot vouched for, and any
// truncation of -o below it (donelog.go) — costs pages fetched again,
// never a page lost.
//
// # Replay, bounded by what is left
//
// The journal only grows while a crawl runs. When the journals since the
// last snapshot have grown as large as the snapshot, the journal goes on
// in a new file and the old ones are folded into the next snapshot, off
// the crawl's goroutines (fold.go): the queue that is left, and the seen
// set as a sorted file of hashes, merged as IRLbot's DRUM merges. A start
// reads the last snapshot and the journals after it (replay.go): what is
// left to do, not the crawl's history.
//
// # What a stop may cost
//
// Entries are written with write(2), and a page's job ends only once its
// batch is written. So a kill -9 loses nothing handed to the kernel: at
// most the pages in flight, --max_tasks of them, are fetched again, and
// those are handed out last at the next start (S entries), so a page that
// crashes the crawler is not the first thing each restart does. Every
// second, and at the end, the files are fsync'd: a power cut may lose the
// last second or so, and those pages are fetched again. A full disk stops
// the crawl with a clear error; what was written stays consistent.
package journal
