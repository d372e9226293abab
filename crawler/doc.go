// Package crawler is the top of loopkit's library stack: the "500 Lines or
// Less" web crawler, grown up. It sits on task (the workers) and on
// crawler/http1 (the fetch engine), keeps its to-do list in
// crawler/frontier (per-host queues and politeness), its state on disk in
// crawler/journal, and uses the pure helpers crawler/urlnorm,
// crawler/links and crawler/robots. crawler/fleet, above it, shares one
// crawl between processes. Two packages sit under crawler/ without
// package crawler importing them, because they belong to its story:
// crawler/resp is the fleet's Redis client, a second protocol on the loop
// beside crawler/http1; crawler/timeline draws the Attempts a crawl
// reports.
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
// Read these in order; each says why it is there.
//
//	crawler.go     Crawler, New, Crawl, work, endJob — the chapter's crawl and work
//	fetch.go       fetch, describeReply, followRedirect, parseLinks, parsePage — the chapter's fetch and parse_links
//	addurl.go      follow, filter, add, route — the chapter's url_allowed and add_url, and the one routing step
//	todo.go        enter, screen, push, host, learnRobots, holdServer, restarted — the one way into the frontier
//	record.go      Record, record, Tally — one record per URL, the chapter's FetchStatistic
//	report.go      Report, Stats — the chapter's report
//	dispatch.go    next, dispatch, checkEmpty, join — the frontier's loop side: parked workers, one timer, join
//	politeness.go  judge, sendGate, failHost, fetchRobots, robotsAllow — what an answer says: pushback, Retry-After, retries; robots.txt
//	config.go      Config, ConfigError — the chapter's flags first, then what this crawler adds
//	errorkind.go   errorKind — the kinds of error a record names
//	extension.go   extension, extensions, peers, alone, Shared — the seam: one way out, and who else crawls
//
// What lets a crawl outlive its memory, its process or its machine plugs
// in at the seam (extension.go). Read it only when you want it:
//
//	persist.go     writer, replayVisitor — the journal's extension: Config.Output and Config.State, a batch per turn; a stopped crawl put back
//	store.go       store, openStore, SettingsOf — the files themselves, written off the loop
//	spill.go       overflow, refill — long host queues on disk, and back in order
//	backlog.go     backlog — the rest of a stopped crawl's queue, read back as the crawl goes
//	seen.go        seenSet, standOn, waitsOnDisk — the seen set past Config.SeenMemory: on disk, checked in batches (IRLbot's DRUM)
//	shared.go      sharedCrawl, Offer, KnowRobots, HoldServer, Drop, Drain, End, Politeness — a crawl shared by processes (crawler/fleet)
//	assemble.go    assemble, newCrawler, owned — a crawl put together, on one loop or several
//	budget.go      budget, admit — MaxTasks and MaxPages, for every loop at once
//	parsepool.go   parsePool — parsing off the loop, on a bounded pool of workers
//	shard.go       shard, ownerOf, receive — which loop owns which server, and links crossing between loops
//	group.go       Group, NewGroup, DefaultLoops — one crawl on several loops; read it last
//
// # A link's way, from the page that found it to its JSON line
//
// On one loop, with Config.Output set: each call in turn, and where it is.
//
//	fetch.go       parseLinks  the page's links, parsed off the loop
//	addurl.go      follow      the filters (the chapter's url_allowed)
//	addurl.go      add         new? (the chapter's add_url)
//	addurl.go      route       this loop's to fetch
//	todo.go        enter       counted against its host's share, noted for the extensions, screened
//	todo.go        push        on its host's queue in the frontier
//	dispatch.go    dispatch    handed to a parked worker, once its server may be sent a request
//	crawler.go     work        the worker wakes with it
//	crawler.go     run         a page, not a robots.txt
//	fetch.go       fetch       the request and its reply
//	record.go      record      its record, counted
//	persist.go     recorded    its line, in this loop's batch
//	persist.go     schedule    the batch, to leave at the end of the turn
//	persist.go     writeBatch  the batch, handed to the executor
//	store.go       write       the batch, written: the JSON line
//
// Each is called by the one before it, but work: a worker parked in next
// wakes when dispatch completes its future. On the way, side trips, each
// a call that returns: parseLinks has a parse worker read the page
// (parse, parsepool.go); route asks the loop's peers whether the link
// is the loop's (owns, extension.go); enter, once the link is past its
// host's caps, tells the extensions it is to do (queued: a journal
// writes it down, persist.go) and asks the overflow whether it waits on
// disk (takes, spill.go); and the
// frontier asks the budget before it hands the job out (admit,
// budget.go). So a journal hears of a URL twice: when it is found, and
// when its record is made.
//
// With several loops, a link whose server another loop owns leaves add
// for shard.go (handOver, then receive on its owner's loop) and comes
// back to enter; in a fleet, it leaves for shared.go (handOver) and comes
// back, on whichever process holds its host, through Offer to enter.
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
// normally. A 429 or a 503 holds the server back at least a second,
// doubling with the refused page's tries. Retry-After, in both forms and
// on every attempt, holds back everything not yet sent to the host; a
// wait longer than
// Config.MaxRetryAfter gives the host up, and its URLs are recorded with
// why.
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
