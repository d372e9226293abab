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

// item is one entry of the queue: the chapter's (url, max_redirect) pair,
// with the link depth.
type item struct {
	url       string
	redirects int // redirects still allowed from here
	depth     int
}

// Crawler crawls from its roots. Create it with New, run it with Crawl.
type Crawler struct {
	cfg    Config
	loop   *loop.Loop
	client *http1.Client
	roots  []*url.URL
	scope  *urlnorm.Scope
	q      *task.Queue[item]
	seen   urlnorm.Seen
	gates  map[string]*gate
	robots robotsCache

	records  []*Record
	stats    Stats
	fetching int // pages started, for MaxPages
	stopping bool
	joined   bool
	grace    *loop.Timer // after an interrupt: when in-flight work is cancelled
	workers  []*task.Task[int]
	start    time.Time
	elapsed  time.Duration
}

// New prepares a crawl on l. It fails on an invalid root.
func New(l *loop.Loop, cfg Config) (*Crawler, error) {
	cfg = cfg.withDefaults()
	if len(cfg.Roots) == 0 {
		return nil, errors.New("crawler: no roots")
	}
	c := &Crawler{cfg: cfg, loop: l, q: task.NewQueue[item](0), gates: make(map[string]*gate)}
	for _, r := range cfg.Roots {
		u, err := ParseRoot(r)
		if err != nil {
			return nil, err
		}
		c.roots = append(c.roots, u)
	}
	c.scope = urlnorm.NewScope(c.roots, cfg.Lenient)
	c.client = http1.NewClient(l, cfg.HTTP)
	c.robots = robotsCache{crawler: c, entries: make(map[string]*robotsEntry)}
	return c, nil
}

// Crawl runs the crawl to its end (or its interruption) from inside a
// task: add the roots, start the workers, join the queue, stop the
// workers — the chapter's crawl().
func (c *Crawler) Crawl(y task.Yield) error {
	c.start = time.Now()
	defer func() { c.elapsed = time.Since(c.start) }()
	defer c.client.Close()
	for _, u := range c.roots {
		c.add(u.String(), c.cfg.MaxRedirect, 0)
	}
	var workers []future.Awaitable[int]
	for range c.cfg.MaxTasks {
		w := task.Spawn(c.loop, c.work)
		c.workers = append(c.workers, w)
		workers = append(workers, w)
	}
	err := c.q.Join(y)
	// Join returns early only if Crawl itself was cancelled: then nothing
	// new may start while the workers wind down.
	c.joined, c.stopping = true, true
	if c.grace != nil {
		c.grace.Cancel() // the crawl ended within the grace period
	}
	for _, w := range c.workers {
		w.Cancel()
	}
	task.Gather(y, workers...)
	return err
}

// work is one worker: take an item, handle it, mark it done, until the
// crawl is over.
// TaskDone runs whatever happens, and a panic costs one item, not the
// worker: the chapter's crawler hung in join() when a worker died.
func (c *Crawler) work(y task.Yield) (int, error) {
	for !c.joined {
		it, err := c.q.Get(y)
		if err != nil {
			continue // cancelled while idle: by the crawl's end, or by an interrupt (keep draining)
		}
		if perr := task.Catch(func() { c.handle(y, it) }); perr != nil {
			c.record(&Record{URL: it.url, Depth: it.depth, Exception: ptr("crawler bug: " + perr.Error())})
		}
		c.q.TaskDone()
	}
	return 0, nil // the crawl is over; what is still queued stays to do
}

// add queues u unless it was seen before, and reports whether it was new.
func (c *Crawler) add(u string, redirects, depth int) bool {
	if !c.seen.Add(u) {
		return false
	}
	c.q.PutNowait(item{url: u, redirects: redirects, depth: depth})
	return true
}

// allowed applies the filters every URL passes, links and redirect
// targets alike: scheme, host scope, --exclude and --max_depth.
func (c *Crawler) allowed(u *url.URL, depth int) bool {
	switch {
	case !urlnorm.Crawlable(u), !c.scope.Allowed(u):
		return false
	case c.cfg.Exclude != nil && c.cfg.Exclude.MatchString(u.String()):
		return false
	case c.cfg.MaxDepth > 0 && depth > c.cfg.MaxDepth:
		return false
	}
	return true
}

func (c *Crawler) record(r *Record) {
	c.records = append(c.records, r)
	c.stats.Done++
	if r.Exception != nil {
		c.stats.Errors++
	}
	if c.cfg.OnRecord != nil {
		c.cfg.OnRecord(r)
	}
}

// Interrupt stops the crawl: no new fetches start, and what is in flight
// may finish for the grace period, after which it is cancelled. A second
// Interrupt cancels at once. Call it on the loop (from a signal handler,
// via CallSoonThreadsafe).
func (c *Crawler) Interrupt() {
	if c.stopping {
		c.cancelInFlight()
		return
	}
	c.stopping = true
	c.stats.Interrupted = true
	c.grace = c.loop.CallLater(c.cfg.Grace, c.cancelInFlight)
}

// cancelInFlight interrupts the workers' current fetches; the workers then
// drain the queue without fetching, so Join still completes.
func (c *Crawler) cancelInFlight() {
	for _, w := range c.workers {
		w.Cancel()
	}
}

// Records are the records made so far, in the order they were made.
func (c *Crawler) Records() []*Record { return c.records }

// Todo is how many queued URLs were never fetched (interrupt, budget).
func (c *Crawler) Todo() int { return c.stats.Todo + c.q.Len() }

// Elapsed is how long Crawl ran (so far, while it runs).
func (c *Crawler) Elapsed() time.Duration {
	if c.elapsed == 0 && !c.start.IsZero() {
		return time.Since(c.start)
	}
	return c.elapsed
}
