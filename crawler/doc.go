// Package crawler is the top of loopkit's library stack: the "500 Lines or
// Less" web crawler, grown up. It sits on task (workers, the queue, sleeps,
// semaphores) and on crawler/http1 (the fetch engine), and uses the pure
// helpers crawler/urlnorm, crawler/links and crawler/robots.
//
// The algorithm is the chapter's: a queue of (url, redirects left); a seen
// set; max_tasks worker tasks taking from the queue; Join, then cancel the
// workers. Redirects are handled here, not in the HTTP client, so that a
// redirect's target goes through the same filters as any link and chains
// that end at the same page merge in the seen set.
//
// What the chapter's crawler lacks, and this one adds: every error is
// recorded and TaskDone always runs, so a crawl cannot hang; robots.txt
// (RFC 9309) is obeyed by default; each host has its own concurrency limit,
// spacing and Retry-After clock; transient failures are retried with
// exponential backoff and jitter; links come from an HTML tokenizer
// with <base href> and entities; URLs are normalized; hosts are matched
// strictly or by registrable domain; the crawl can be bounded by pages and
// depth; and an interrupt stops it cleanly with nothing recorded lost.
package crawler
