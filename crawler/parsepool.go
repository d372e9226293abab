package crawler

import (
	"context"
	"net/url"
	"sync/atomic"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// parsePool moves the crawl's computing off its loop: a page's body goes
// to one of a few parse workers, goroutines that run parsePage, and its
// result comes back with CallSoonThreadsafe, as RunInExecutor's do.
//
// Why a pool of long-lived workers, and not RunInExecutor per page (a new
// goroutine per job): the pool bounds how many pages are parsed at once,
// so that parsing cannot take every core from the loops it serves, and a
// hand-off is a channel send to a waiting goroutine instead of a goroutine
// created, a close hook registered and unregistered. Measured on this
// project's 2-core machine (BenchmarkParseHandOff), a round trip from the
// loop to a worker and back costs about the same either way, a few
// microseconds of CPU; the bound is the reason. The workers themselves
// are started with RunInExecutor, so a closed loop still waits for them
// and leaves no goroutine behind.
//
// One crawl has one pool, whatever the number of its loops: a crawl of
// one host runs on one loop, and it is the pool that spreads its parsing
// over the other cores. Each page's result goes back to the loop it came
// from; the bytes awaiting parse are counted for the whole crawl.
//
// Two rules keep the pool honest:
//
//   - Small pages are parsed on the loop. Below inlineBelow bytes a
//     page's parsing costs less than its trip to a worker and back.
//   - Backpressure: the pool takes bodies while fewer than budget bytes
//     await parsing (queued or being parsed). At or above it, saturated
//     says so and no loop's frontier hands out a job, so no new request
//     leaves; fetching slows down to the pace of parsing instead of
//     buffering bodies. Fetches already on the wire still land, so the
//     bytes awaiting parsing stay under budget plus what those bring
//     (at most MaxTasks pages: each worker slot holds one page at a
//     time, and waits for its parse).
//
// Production crawlers do more: Scrapy parses on the reactor thread and
// bounds memory by response size (SCRAPER_SLOT_MAX_ACTIVE_SIZE, 5 MB, the
// same kind of bound as budget); large crawlers parse in other processes,
// or other machines, fed by a queue on disk.
type parsePool struct {
	workers     int // parse workers to start
	inlineBelow int // bodies shorter than this are parsed on the loop
	budget      int // bytes of bodies that may await parsing before fetching pauses
	jobs        chan parseJob
	running     []future.Awaitable[struct{}]
	parseFn     func(contentType string, body []byte, page *url.URL) parsed // parsePage; a test's stand-in
	observe     func(ParseEvent)                                            // Config.OnParse; nil: nothing is timed

	// Every loop of a Group sends its pages here, so these are atomics.
	pending atomic.Int64   // bytes handed to the workers and not back yet
	peak    atomic.Int64   // the most pending ever was
	offLoop atomic.Int64   // pages parsed by the workers
	onRoom  func(*Crawler) // told, on the loop of the crawler whose page it was, when pending falls back under budget
}

type parseJob struct {
	contentType string
	body        []byte
	page        *url.URL
	owner       *Crawler // whose loop the result goes back to
	result      *future.Future[parsed]
}

// newParsePool makes a pool of workers parse workers. maxJobs is how many
// pages can be awaiting parse at once (one per worker slot of the crawl),
// so the channel has room for all of them and a send from a loop never
// blocks. workers < 1 makes a pool that parses everything on the loop.
func newParsePool(workers, maxJobs, inlineBelow, budget int) *parsePool {
	p := &parsePool{workers: workers, inlineBelow: inlineBelow, budget: budget, parseFn: parsePage}
	if workers > 0 {
		p.jobs = make(chan parseJob, maxJobs)
	}
	return p
}

// start starts the workers on home's executor: home's Close waits for
// them, so a closed loop leaves no parse worker behind.
func (p *parsePool) start(home *loop.Loop) {
	for i := range p.workers {
		p.running = append(p.running, loop.RunInExecutor(home, func(ctx context.Context) (struct{}, error) {
			return p.work(ctx, i)
		}))
	}
}

// parse parses a page for c: on c's loop if it is small or there are no
// workers, else on a worker while the calling task waits. A task
// cancelled while it waits gets the cancellation; the page is parsed all
// the same, and counted in pending until it is.
func (p *parsePool) parse(y task.Yield, c *Crawler, contentType string, body []byte, page *url.URL) (parsed, error) {
	if p.jobs == nil || len(body) < p.inlineBelow {
		return p.parseFn(contentType, body, page), nil
	}
	j := parseJob{contentType: contentType, body: body, page: page, owner: c, result: future.New[parsed](c.loop)}
	select {
	case p.jobs <- j:
	default: // more pages than worker slots: a bug, but not one to block the loop for
		return p.parseFn(contentType, body, page), nil
	}
	raise(&p.peak, p.pending.Add(int64(len(body))))
	return task.Await(y, j.result)
}

// work is parse worker number worker: it parses what comes, and posts
// each result back to its crawler's loop, until the pool closes or its
// home loop does.
func (p *parsePool) work(ctx context.Context, worker int) (struct{}, error) {
	for {
		select {
		case <-ctx.Done():
			return struct{}{}, nil
		case j, ok := <-p.jobs:
			if !ok {
				return struct{}{}, nil
			}
			var began time.Time
			if p.observe != nil {
				began = time.Now()
			}
			res := p.parseFn(j.contentType, j.body, j.page)
			if p.observe != nil {
				p.observe(ParseEvent{Worker: worker, URL: j.page.String(), Bytes: len(j.body), Start: began, End: time.Now()})
			}
			// A closed loop has nobody waiting for the result: dropped.
			_ = j.owner.loop.CallSoonThreadsafe(func() { p.done(j, res) })
		}
	}
}

// done is a parse's result back on its crawler's loop.
func (p *parsePool) done(j parseJob, res parsed) {
	n := p.pending.Add(-int64(len(j.body)))
	p.offLoop.Add(1)
	j.result.SetResult(res)
	if was := n + int64(len(j.body)); was >= int64(p.budget) && n < int64(p.budget) && p.onRoom != nil {
		p.onRoom(j.owner)
	}
}

// stats are the pages parsed off the loop, and the most bytes that ever
// awaited parsing at once: the crawl's, over every loop.
func (p *parsePool) stats() (offLoop, backlogPeak int) {
	return int(p.offLoop.Load()), int(p.peak.Load())
}

// saturated says the pool has enough to do: no job is handed out, on any
// loop, until it has less.
func (p *parsePool) saturated() bool { return p.jobs != nil && p.pending.Load() >= int64(p.budget) }

// close tells the workers there is nothing more and waits, without
// blocking the loop, until they are gone. Call it once no crawler can
// send a page any more.
func (p *parsePool) close(y task.Yield) {
	if p.jobs == nil {
		return
	}
	close(p.jobs)
	task.Gather(y, p.running...)
}

// closeJobs tells the workers there is nothing more, without waiting for
// them: their home loop's Close does.
func (p *parsePool) closeJobs() {
	if p.jobs != nil {
		close(p.jobs)
	}
}

// raise makes m at least n.
func raise(m *atomic.Int64, n int64) {
	for {
		old := m.Load()
		if n <= old || m.CompareAndSwap(old, n) {
			return
		}
	}
}
