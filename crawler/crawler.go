package crawler

import (
	"errors"
	"net/url"
	"time"

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
	roots    []*url.URL
	scope    *urlnorm.Scope
	seen     urlnorm.Seen
	front    *frontier
	parser   *parsePool
	shard    *shard         // nil on its own; a Group's part otherwise (shard.go)
	variants map[string]int // distinct queries queued per host and path

	records    []*Record
	disallowed []string // URLs robots.txt kept us from
	stats      Stats
	notices    []string // said once each on stderr (with -v or not)
	fetching   int      // pages started, for MaxPages
	stopping   bool
	grace      *loop.Timer // after an interrupt: when in-flight work is cancelled
	workers    []*task.Task[int]
	start      time.Time
	elapsed    time.Duration
}

// New prepares a crawl on l. It fails on an invalid root.
func New(l *loop.Loop, cfg Config) (*Crawler, error) {
	cfg = cfg.withDefaults()
	if len(cfg.Roots) == 0 {
		return nil, errors.New("crawler: no roots")
	}
	newServerPace := func() pace { return newPace(cfg.PerHost, cfg.Delay) }
	c := &Crawler{cfg: cfg, loop: l, front: newFrontier(l, cfg.Jitter, newServerPace), variants: make(map[string]int)}
	for _, r := range cfg.Roots {
		u, err := ParseRoot(r)
		if err != nil {
			return nil, err
		}
		c.roots = append(c.roots, u)
	}
	c.front.started = c.started
	c.scope = urlnorm.NewScope(c.roots, cfg.Lenient)
	c.client = http1.NewClient(l, cfg.HTTP)
	c.parser = newParsePool(l, cfg.ParseWorkers, cfg.MaxTasks, cfg.ParseInlineBelow, cfg.ParseBudget)
	c.front.hold = c.parser.saturated
	c.parser.onRoom = c.front.dispatch
	c.stats.Filtered = make(map[string]int)
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
	for _, u := range c.roots {
		if c.owns(u) {
			c.addRoot(u)
		}
	}
	var workers []future.Awaitable[int]
	for range c.cfg.MaxTasks {
		w := task.Spawn(c.loop, c.work)
		c.workers = append(c.workers, w)
		workers = append(workers, w)
	}
	c.front.checkEmpty() // with no roots of its own, a Group's shard is quiet at once
	err := c.front.join(y)
	// join returns early only if Crawl itself was cancelled: then nothing
	// new may start, and what is in flight is cancelled.
	c.stopping = true
	c.front.stop()
	if c.grace != nil {
		c.grace.Cancel() // the crawl ended within the grace period
	}
	for _, w := range c.workers {
		w.Cancel()
	}
	task.Gather(y, workers...)
	c.parser.close(y)
	return err
}

// work is one worker: take a job the frontier hands out, run it, tell the
// frontier what became of it, until the crawl is over. A panic costs one
// URL, not the worker: the chapter's crawler hung in join() when a worker
// died.
func (c *Crawler) work(y task.Yield) (int, error) {
	for {
		j, err := c.front.next(y)
		if err != nil {
			return 0, nil // the frontier is stopped, or the crawl cancelled
		}
		var v verdict
		if perr := task.Catch(func() { v = c.run(y, j) }); perr != nil {
			c.record(&Record{URL: j.item.url, Depth: int(j.item.depth), ErrorKind: "crawler_bug",
				Exception: ptr("crawler bug: " + perr.Error())})
			v = verdict{}
		}
		if v.retry {
			j.item.tries = v.tries
			if v.redirectTo != "" {
				j.item = item{url: v.redirectTo, redirects: j.item.redirects - 1}
			}
			c.front.requeue(j, v.wait)
		} else {
			c.front.finish(j)
		}
	}
}

// started counts the pages handed out, and stops the frontier when the
// page budget is spent (a retry was counted when it first started).
func (c *Crawler) started(j job) {
	if j.robots || j.item.tries > 0 {
		return
	}
	c.fetching++
	if c.shard != nil {
		if c.shard.group.startedPage() {
			c.front.stop()
			c.shard.group.stopAll()
		}
		return
	}
	if c.cfg.MaxPages > 0 && c.fetching >= c.cfg.MaxPages {
		c.front.stop()
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

func (c *Crawler) run(y task.Yield, j job) verdict {
	if j.robots {
		return c.runRobots(y, j)
	}
	return c.runPage(y, j)
}

func (c *Crawler) record(r *Record) {
	c.records = append(c.records, r)
	c.stats.Done++
	if r.Status != nil {
		c.stats.Fetched++
	}
	if r.Exception != nil {
		c.stats.Errors++
	}
	if c.cfg.OnRecord != nil {
		c.cfg.OnRecord(r)
	}
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
		c.cfg.OnNotice(msg)
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
	c.front.stop()
	c.grace = c.loop.CallLater(c.cfg.Grace, c.cancelInFlight)
}

// cancelInFlight cancels the workers' current fetches; what they had is
// counted as to do, and the frontier's join completes when they are back.
func (c *Crawler) cancelInFlight() {
	for _, w := range c.workers {
		w.Cancel()
	}
}

// Records are the records made so far, in the order they were made.
func (c *Crawler) Records() []*Record { return c.records }

// Disallowed are the URLs robots.txt kept the crawler from, in the order
// they were found.
func (c *Crawler) Disallowed() []string { return c.disallowed }

// Todo is how many URLs were found but never fetched: left queued by an
// interrupt or the page budget, or cancelled in flight.
func (c *Crawler) Todo() int { return c.front.queued + c.stats.Cancelled }

// Elapsed is how long Crawl ran (so far, while it runs).
func (c *Crawler) Elapsed() time.Duration {
	if c.elapsed == 0 && !c.start.IsZero() {
		return time.Since(c.start)
	}
	return c.elapsed
}

// Loop is the loop the crawler runs on.
func (c *Crawler) Loop() *loop.Loop { return c.loop }
