// Package crawler is the top of loopkit's library stack: the "500 Lines or
// Less" web crawler, grown up. It sits on task (the workers) and on
// crawler/http1 (the fetch engine), and uses the pure helpers
// crawler/urlnorm, crawler/links and crawler/robots.
//
// The algorithm is the chapter's: a to-do list of (url, redirects left); a
// seen set; max_tasks worker tasks taking from the list; wait until it is
// empty and nothing is in flight, then cancel the workers. Redirects are
// handled here, not in the HTTP client, so that a redirect's target goes
// through the same filters as any link and chains that end at the same
// page merge in the seen set.
//
// The to-do list is a frontier that knows hosts (frontier.go), as Scrapy's
// downloader slots and Heritrix's per-host queues do. URLs wait in their
// host's queue; a host is ready when its next-allowed time has come
// (spacing from --delay or Crawl-delay, Retry-After, backoff) and it is
// under its concurrency limit; ready hosts sit in a heap ordered by that
// time, and a parked worker is handed a URL only from a host that may send
// now. So no worker ever waits on a host while another host has work, and
// one slow host cannot stall the crawl — which is what the chapter's single
// queue does as soon as it tries to be polite.
//
// A host in the frontier is an origin, scheme://host:port: robots.txt
// belongs to exactly that (RFC 9309 §2.3), and so does a queue. Politeness
// belongs to the server behind it (server.go): origins that differ only in
// their scheme — http://example.com and https://example.com, or one port
// that speaks both — share one pace, one count of requests in flight and
// one next-allowed time, so a site on its way to https is not crawled
// twice as hard, and a Retry-After or Crawl-delay heard on one scheme
// holds back the other. https URLs are fetched over TLS (crawler/http1),
// and an http page that redirects to https is followed like any redirect,
// through the same filters; urlnorm's Scope counts both schemes as one
// site. A certificate that cannot be trusted is recorded with the host
// and x509's reason (error_kind "certificate"), and not retried.
//
// Each server adapts its pace (pace.go): concurrency grows by one per round
// of successes and halves when the host pushes back (429, 503, or more
// than 5 % failures), and a spacing learnt from the rate the host actually
// served keeps a rate limit's 429s rare (AIMD, the rule of TCP's
// congestion window). Retry-After, in both forms and on every attempt,
// holds back everything not yet sent to the host; a wait longer than
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
