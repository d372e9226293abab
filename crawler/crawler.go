package crawler

import (
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
	index    int // this loop's place in its Group: 0 on its own
	client   *http1.Client
	rootURLs []*url.URL
	rootSet  map[string]bool // the roots, which pass no filter and no cap: the operator asked for them
	scope    *urlnorm.Scope
	seen     seenSet // the chapter's seen_urls: in memory, and past Config.SeenMemory on disk (seen.go)
	front    *frontier.Frontier
	hosts    map[string]*hostPolicy // by origin: what the crawler decided of each host (todo.go)
	variants map[string]int         // distinct queries entered per host and path

	ext      extensions // what makes the crawl outlive memory or its process: none, on its own (extension.go)
	peers    peers      // who else crawls: nobody, a Group's other loops, a fleet (extension.go)
	budget   *budget    // worker slots and pages, shared by a Group's loops (budget.go)
	parser   *parsePool // pages parsed off the loop (parsepool.go)
	overflow *overflow  // long host queues waiting on disk (spill.go)
	out      *sink      // serializes the callbacks of a Group's loops; nil on its own

	dispatcher // parked workers and the frontier's timer (dispatch.go)

	records    []*Record   // kept for the per-URL report while the crawl is small (record.go)
	disallowed []string    // URLs robots.txt kept us from, likewise
	listed     *reportList // how many of those every loop keeps (record.go)
	roots      *rootWatch  // the roots' records, whatever the size (record.go)
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
func New(l *loop.Loop, cfg Config) (*Crawler, error) { return assembleAlone(l, cfg) }

// Close lets go of the crawl's output and state directory. Crawl does
// it; a Crawler that never crawled must do it, to let its state
// directory go.
func (c *Crawler) Close() error { return c.ext.abandon() }

// Crawl runs the crawl to its end (or its interruption) from inside a
// task: add the roots, let the workers work, wait until the frontier has
// nothing left, stop the workers — the chapter's crawl(), with the
// frontier's join in place of the queue's.
func (c *Crawler) Crawl(y task.Yield) error {
	c.start = time.Now()
	defer func() { c.elapsed = time.Since(c.start) }()
	defer c.client.Close()
	c.ext.started()
	c.crawling = true // from here, dispatch starts workers as jobs wait for them
	for _, u := range c.peers.roots(c.rootURLs) {
		c.addRoot(u)
	}
	c.dispatch()
	err := c.join(y) // the chapter's q.join(); it returns early only if Crawl is cancelled
	c.stopping = true
	c.stop()
	if c.grace != nil {
		c.grace.Cancel() // the crawl ended within the grace period
	}
	c.crawling = false
	c.cancelWorkers(y) // the chapter's w.cancel() for each worker
	if ferr := c.ext.finish(y); err == nil {
		err = ferr
	}
	return err
}

// cancelWorkers cancels the worker tasks, parked and waiting for a job
// that will not come, and waits until they are gone.
func (c *Crawler) cancelWorkers(y task.Yield) {
	workers := make([]future.Awaitable[int], len(c.workers))
	for i, w := range c.workers {
		w.Cancel()
		workers[i] = w
	}
	task.Gather(y, workers...)
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
			c.record(&Record{URL: j.Item.URL, Depth: int(j.Item.Depth), ErrorKind: ErrorKindCrawlerBug,
				Exception: ptr("crawler bug: " + perr.Error())})
			v = verdict{}
		}
		c.ext.jobEnds(y) // with a journal: its record and links written first
		c.endJob(j, v)
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

// endJob gives j back to the frontier, done or to be tried again, and its
// worker slot back to the budget.
func (c *Crawler) endJob(j *frontier.Job, v verdict) {
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
// interrupt or the page budget, or cancelled in flight. Past
// Config.SeenMemory it may count links that were not new (seen.go).
func (c *Crawler) Todo() int {
	spilled, seen := c.onDisk() // seen.Waiting: links the seen set asks the disk about, new or not
	return c.front.Queued() + spilled + seen.Waiting + c.stats.Cancelled
}

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
