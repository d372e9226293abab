// Package crawler is the top of loopkit's library stack: the "500 Lines or
// Less" web crawler, grown up. It sits on task (the workers) and on
// crawler/http1 (the fetch engine), keeps its to-do list in
// crawler/frontier (per-host queues and politeness), its state on disk in
// crawler/journal, and uses the pure helpers crawler/urlnorm,
// crawler/links and crawler/robots. crawler/fleet, above it, shares one
// crawl between processes.
//
// The algorithm is the chapter's: a to-do list of (url, redirects left); a
// seen set; max_tasks worker tasks taking from the list; wait until it is
// empty and nothing is in flight, then cancel the workers. Redirects are
// handled here, not in the HTTP client, so that a redirect's target goes
// through the same filters as any link and chains that end at the same
// page merge in the seen set.
//
// # Where the chapter's pieces are
//
//	crawler.go     Crawler, Crawl (the chapter's crawl), work, record
//	fetch.go       fetch: one attempt at a page, its redirect followed;
//	               parseLinks and the page's reading (charset, links)
//	addurl.go      addURL and the filters every link passes (url_allowed)
//	report.go      the chapter's report, and the running counts
//	config.go      Config: the chapter's flags and what this crawler adds
//
// And what is new:
//
//	dispatch.go    the frontier's loop side: parked workers, one timer, join
//	politeness.go  judging an answer: pushback, Retry-After, retries, backoff;
//	               robots.txt (RFC 9309) as each host's gate
//	record.go      Record, one per URL, and Attempt, one per request
//	parsepool.go   parsing off the loop, on a bounded pool of workers
//	budget.go      max_tasks, max_pages and the parse budget, for every loop at once
//	group.go       one crawl on several loops
//	shard.go       which loop owns which server, and links crossing between loops
//	persist.go     what outlives the loop: -o and --state (crawler/journal),
//	               written off the loop in batches
//	spill.go       long host queues overflowing to disk, and back in order
//	shared.go      a crawl Shared by processes (crawler/fleet)
//
// # Politeness
//
// The to-do list is a frontier that knows hosts (crawler/frontier), as
// Scrapy's downloader slots and Heritrix's per-host queues do. URLs wait
// in their host's queue, and a parked worker is handed a URL only from a
// host that may send now. So no worker ever waits on a host while another
// host has work, and one slow host cannot stall the crawl — which is what
// the chapter's single queue does as soon as it tries to be polite.
// Politeness belongs to the server behind a host: origins that differ only
// in their scheme share one pace, one count of requests in flight and one
// next-allowed time. https URLs are fetched over TLS (crawler/http1); a
// certificate that cannot be trusted is recorded with the host and
// x509's reason (error_kind "certificate"), and not retried.
//
// Each server adapts its pace: concurrency grows by one per round of
// successes and halves when the host pushes back (429, 503, or more than
// 5 % failures), and a spacing learnt from the rate the host actually
// served keeps a rate limit's 429s rare (AIMD, the rule of TCP's
// congestion window); the spacing decays again as the host answers
// normally. Retry-After, in both forms and on every attempt, holds back
// everything not yet sent to the host; a wait longer than
// --max_retry_after gives the host up, and its URLs are recorded with why.
//
// What else the chapter's crawler lacks, and this one adds: every error
// is recorded and a worker survives a panic, so a crawl cannot hang;
// robots.txt (RFC 9309) is fetched first for each host, through the same
// politeness, and a robots.txt that cannot be read is a recorded failure,
// not a silent "disallow all"; transient failures are retried with
// exponential backoff and jitter; only HTML bodies are read; links come
// from an HTML tokenizer with <base href> and entities; URLs are
// normalized; hosts are matched strictly or by registrable domain; the
// crawl can be bounded by pages, depth, pages per host, URL length and
// query variants per path; and an interrupt stops every new request at
// once, with nothing recorded lost and what was never sent left to do.
package crawler
