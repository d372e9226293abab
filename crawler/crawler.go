package crawler

import (
	"errors"
	"net/url"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/http1"
	"loopkit/crawler/urlnorm"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// Crawler crawls from its roots. Create it with New, run it with Crawl.
// Like everything on a loop, it is used only from the loop's goroutine.
type Crawler struct {
	cfg      Config
	loop     *loop.Loop
	client   *http1.Client
	rootURLs []*url.URL
	scope    *urlnorm.Scope
	seen     urlnorm.Seen
	front    *frontier.Frontier
	hosts    map[string]*hostPolicy // by origin: what the crawler decided of each host (addurl.go)
	budget   *budget                // worker slots, pages, parse backlog: shared by a Group's loops (budget.go)
	// awaitsBudget says this loop is on the budget's waiting list; the
	// budget's lock guards it.
	awaitsBudget bool
	toldQueued   int64 // its queue's length as it last told the budget
	parser       *parsePool
	shard        *shard         // nil on its own; a Group's part otherwise (shard.go)
	variants     map[string]int // distinct queries queued per host and path
	out          *sink          // serializes the callbacks of a Group's loops; nil on its own
	ownPool      bool           // on its own: it starts and stops its parse workers, and closes its store
	store        *store         // -o and --state (persist.go); shared by a Group's loops
	batch        batch          // this loop's writes not yet handed to the executor (persist.go)
	overflow     overflow       // this loop's URLs on disk (spill.go)

	dispatcher // parked workers and the frontier's timer (dispatch.go)

	records    []*Record  // kept for the per-URL report while the crawl is small (record.go)
	disallowed []string   // URLs robots.txt kept us from, likewise
	roots      *rootWatch // the roots' records, whatever the size (record.go)
	stats      Stats
	notices    []string // said once each on stderr (with -v or not)
	stopping   bool
	grace      *loop.Timer       // after an interrupt: when in-flight work is cancelled
	workers    []*task.Task[int] // started as work came, MaxTasks at most (dispatch.go)
	crawling   bool              // Crawl runs: workers may be started
	start      time.Time
	elapsed    time.Duration
}

// New prepares a crawl on l. It fails on an invalid root, or when its
// output or state directory cannot be opened (Config.Output, State). With
// a state directory that holds a stopped crawl, the crawl goes on from
// where it was. Crawl closes what New opened; a Crawler that will not
// crawl must be closed with Close.
func New(l *loop.Loop, cfg Config) (*Crawler, error) {
	cfg = cfg.withDefaults()
	c, err := newCrawler(l, cfg, newBudget(cfg), nil)
	if err != nil {
		return nil, err
	}
	c.ownPool = true
	if c.store, err = openStore(cfg, c.notice); err != nil {
		return nil, err
	}
	if err := c.store.replay(cfg, replayInto([]*Crawler{c}), c.notice); err != nil {
		return nil, err
	}
	return c, nil
}

// Close closes the crawl's output and state directory. Crawl does it; a
// Crawler that never crawled must do it, to let its state directory go.
func (c *Crawler) Close() error { return c.store.close() }

// newCrawler prepares a crawl on l that takes from b: its own, or its
// Group's, shared with the other loops.
func newCrawler(l *loop.Loop, cfg Config, b *budget, sh *shard) (*Crawler, error) {
	if len(cfg.Roots) == 0 {
		return nil, errors.New("crawler: no roots")
	}
	c := &Crawler{cfg: cfg, loop: l, budget: b, shard: sh, variants: make(map[string]int),
		hosts: make(map[string]*hostPolicy)}
	for _, r := range cfg.Roots {
		u, err := ParseRoot(r)
		if err != nil {
			return nil, err
		}
		c.rootURLs = append(c.rootURLs, u)
	}
	c.roots = b.roots
	if c.roots == nil {
		b.roots = newRootWatch(c.rootURLs)
		c.roots = b.roots
	}
	c.front = frontier.New(frontier.Options{PerHost: cfg.PerHost, Delay: cfg.Delay, Jitter: cfg.Jitter, Admit: c.admit})
	c.dispatcher.init(l)
	c.scope = urlnorm.NewScope(c.rootURLs, cfg.Lenient)
	c.client = http1.NewClient(l, cfg.HTTP)
	c.parser = b.parse
	b.crawlers = append(b.crawlers, c)
	c.stats.Filtered = make(map[string]int)
	c.stats.Kinds = make(map[string]int)
	return c, nil
}

// Crawl runs the crawl to its end (or its interruption) from inside a
// task: add the roots, start the workers, wait until the frontier has
// nothing left, stop the workers — the chapter's crawl(), with the
// frontier's join in place of the queue's.
func (c *Crawler) Crawl(y task.Yield) error {
	c.start = time.Now()
	defer func() { c.elapsed = time.Since(c.start) }()
	defer c.client.Close()
	if c.ownPool {
		c.parser.start(c.loop)
	}
	if c.cfg.Shared != nil {
		c.cfg.Shared.Start(c)
	}
	c.crawling = true // from here, dispatch starts workers as jobs wait for them
	for _, u := range c.rootURLs {
		if c.owns(u) {
			c.addURL(u, c.cfg.MaxRedirect, 0)
		}
	}
	c.dispatch()
	c.checkEmpty() // with no roots of its own, a Group's shard is quiet at once
	err := c.join(y)
	// join returns early only if Crawl itself was cancelled: then nothing
	// new may start, and what is in flight is cancelled.
	c.stopping = true
	c.stop()
	if c.grace != nil {
		c.grace.Cancel() // the crawl ended within the grace period
	}
	c.crawling = false
	workers := make([]future.Awaitable[int], len(c.workers))
	for i, w := range c.workers {
		w.Cancel()
		workers[i] = w
	}
	task.Gather(y, workers...)
	if c.ownPool {
		c.parser.close(y)
	}
	if c.cfg.Shared != nil {
		c.cfg.Shared.Finish(y)
	}
	c.drain(y)
	if c.ownPool {
		if cerr := c.Close(); err == nil {
			err = cerr
		}
	} else if ferr := c.store.failed(); err == nil {
		err = ferr
	}
	return err
}

// work is one worker: take a job the frontier hands out, run it, tell the
// frontier what became of it, until the crawl is over — the chapter's
// work(), with the frontier's next in place of the queue's get. A panic
// costs one URL, not the worker: the chapter's crawler hung in join()
// when a worker died.
func (c *Crawler) work(y task.Yield) (int, error) {
	for {
		j, err := c.next(y)
		if err != nil {
			return 0, nil // the frontier is stopped, or the crawl cancelled
		}
		var v verdict
		if perr := task.Catch(func() { v = c.run(y, j) }); perr != nil {
			c.record(&Record{URL: j.Item.URL, Depth: int(j.Item.Depth), ErrorKind: "crawler_bug",
				Exception: ptr("crawler bug: " + perr.Error())})
			v = verdict{}
		}
		c.durable(y) // with a journal: its record and links on disk first
		c.over(j, v)
	}
}

// verdict is what run says became of a job: done (recorded, or given up),
// or to be tried again after wait, having made tries attempts — or, for
// robots.txt, to be tried at redirectTo.
type verdict struct {
	retry      bool
	wait       time.Duration
	tries      int32
	redirectTo string
}

func (c *Crawler) run(y task.Yield, j *frontier.Job) verdict {
	if j.Gate {
		return c.fetchRobots(y, j)
	}
	return c.fetch(y, j)
}

// over gives j back to the frontier, done or to be tried again, and its
// worker slot back to the budget.
func (c *Crawler) over(j *frontier.Job, v verdict) {
	now := c.loop.Time()
	switch {
	case !v.retry:
		c.front.Finish(j, now)
	default:
		j.Item.Tries = v.tries
		if v.redirectTo != "" {
			j.Item = frontier.Item{URL: v.redirectTo, Redirects: j.Item.Redirects - 1}
		}
		if !c.front.Requeue(j, now, now+v.wait) && !j.Gate {
			// Its host was given up while it was out: recorded with why.
			c.recordHostFailure(c.hosts[j.Host.Origin()], j.Item)
		}
	}
	c.budget.release(c)
	c.dispatch()
}

// notice tells the operator something once, through Config.OnNotice.
func (c *Crawler) notice(msg string) {
	for _, n := range c.notices {
		if n == msg {
			return
		}
	}
	c.notices = append(c.notices, msg)
	if c.cfg.OnNotice != nil {
		c.out.call(func() { c.cfg.OnNotice(msg) })
	}
}

// Interrupt stops the crawl: no new request starts from this moment, and
// what is in flight may finish for the grace period, after which it is
// cancelled. A second Interrupt cancels at once. Call it on the loop (from
// a signal handler, via CallSoonThreadsafe).
func (c *Crawler) Interrupt() {
	if c.stopping {
		c.cancelInFlight()
		return
	}
	c.stopping = true
	c.stats.Interrupted = true
	c.stop()
	c.grace = c.loop.CallLater(c.cfg.Grace, c.cancelInFlight)
}

// Records are the records made so far, in the order they were made —
// while the crawl has made at most Config.ReportURLs; past that, none is
// kept (OnRecord hears of each).
func (c *Crawler) Records() []*Record { return c.records }

// Disallowed are the URLs robots.txt kept the crawler from, in the order
// they were found, kept as Records are.
func (c *Crawler) Disallowed() []string { return c.disallowed }

// Todo is how many URLs were found but never fetched: left queued by an
// interrupt or the page budget, or cancelled in flight.
func (c *Crawler) Todo() int { return c.front.Queued() + c.overflow.count + c.stats.Cancelled }

// Elapsed is how long Crawl ran (so far, while it runs).
func (c *Crawler) Elapsed() time.Duration {
	if c.elapsed == 0 && !c.start.IsZero() {
		return time.Since(c.start)
	}
	return c.elapsed
}

// MaxTasks is how many jobs the crawl may run at once.
func (c *Crawler) MaxTasks() int { return c.cfg.MaxTasks }

// Stopping says the crawl was told to stop: interrupted, or its page
// budget spent.
func (c *Crawler) Stopping() bool { return c.stopping || c.front.Stopped() }

// Loop is the loop the crawler runs on.
func (c *Crawler) Loop() *loop.Loop { return c.loop }
