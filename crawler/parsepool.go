package crawler

import (
	"context"
	"net/url"

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
// Two rules keep the pool honest:
//
//   - Small pages are parsed on the loop. Below inlineBelow bytes a
//     page's parsing costs less than its trip to a worker and back.
//   - Backpressure: the pool takes bodies while fewer than budget bytes
//     await parsing (queued or being parsed). At or above it, saturated
//     says so and the frontier hands out no job, so no new request
//     leaves; fetching slows down to the pace of parsing instead of
//     buffering bodies. Fetches already on the wire still land, so the
//     bytes awaiting parsing stay under budget plus what those bring
//     (at most MaxTasks pages: each worker task holds one page at a
//     time, and waits for its parse).
//
// Production crawlers do more: Scrapy parses on the reactor thread and
// bounds memory by response size (SCRAPER_SLOT_MAX_ACTIVE_SIZE, 5 MB, the
// same kind of bound as budget); large crawlers parse in other processes,
// or other machines, fed by a queue on disk.
type parsePool struct {
	loop        *loop.Loop
	inlineBelow int // bodies shorter than this are parsed on the loop
	budget      int // bytes of bodies that may await parsing before fetching pauses
	jobs        chan parseJob
	workers     []future.Awaitable[struct{}]
	parseFn     func(contentType string, body []byte, page *url.URL) parsed // parsePage; a test's stand-in

	pending int    // bytes handed to the workers and not back yet
	peak    int    // the most pending ever was
	offLoop int    // pages parsed by the workers
	onRoom  func() // told when pending falls back under budget
}

type parseJob struct {
	contentType string
	body        []byte
	page        *url.URL
	result      *future.Future[parsed]
}

// newParsePool starts workers parse workers on l. maxJobs is how many
// pages can be awaiting parse at once (one per crawler worker task), so
// the channel has room for all of them and a send from the loop never
// blocks. workers < 1 makes a pool that parses everything on the loop.
func newParsePool(l *loop.Loop, workers, maxJobs, inlineBelow, budget int) *parsePool {
	return newParsePoolWith(l, parsePage, workers, maxJobs, inlineBelow, budget)
}

// newParsePoolWith is newParsePool with parse in parsePage's place.
func newParsePoolWith(l *loop.Loop, parse func(string, []byte, *url.URL) parsed, workers, maxJobs, inlineBelow, budget int) *parsePool {
	p := &parsePool{loop: l, inlineBelow: inlineBelow, budget: budget, parseFn: parse}
	if workers < 1 {
		return p
	}
	p.jobs = make(chan parseJob, maxJobs)
	for range workers {
		p.workers = append(p.workers, loop.RunInExecutor(l, p.work))
	}
	return p
}

// parse parses a page: on the loop if it is small or there are no
// workers, else on a worker while the calling task waits. A task
// cancelled while it waits gets the cancellation; the page is parsed all
// the same, and counted in pending until it is.
func (p *parsePool) parse(y task.Yield, contentType string, body []byte, page *url.URL) (parsed, error) {
	if p.jobs == nil || len(body) < p.inlineBelow {
		return p.parseFn(contentType, body, page), nil
	}
	j := parseJob{contentType: contentType, body: body, page: page, result: future.New[parsed](p.loop)}
	select {
	case p.jobs <- j:
	default: // more pages than worker tasks: a bug, but not one to block the loop for
		return p.parseFn(contentType, body, page), nil
	}
	p.pending += len(body)
	p.peak = max(p.peak, p.pending)
	return task.Await(y, j.result)
}

// work is one parse worker: it parses what comes, and posts each result
// back to the loop, until the pool closes or the loop does.
func (p *parsePool) work(ctx context.Context) (struct{}, error) {
	for {
		select {
		case <-ctx.Done():
			return struct{}{}, nil
		case j, ok := <-p.jobs:
			if !ok {
				return struct{}{}, nil
			}
			res := p.parseFn(j.contentType, j.body, j.page)
			if p.loop.CallSoonThreadsafe(func() { p.done(j, res) }) != nil {
				return struct{}{}, nil // the loop has closed: nobody is waiting
			}
		}
	}
}

// done is a parse's result back on the loop.
func (p *parsePool) done(j parseJob, res parsed) {
	wasSaturated := p.saturated()
	p.pending -= len(j.body)
	p.offLoop++
	j.result.SetResult(res)
	if wasSaturated && !p.saturated() && p.onRoom != nil {
		p.onRoom()
	}
}

// saturated says the pool has enough to do: the frontier hands out no job
// until it has less.
func (p *parsePool) saturated() bool { return p.jobs != nil && p.pending >= p.budget }

// close tells the workers there is nothing more and waits, without
// blocking the loop, until they are gone. Pages still queued are parsed
// first (at most budget bytes, and what was in flight), their results
// dropped.
func (p *parsePool) close(y task.Yield) {
	if p.jobs == nil {
		return
	}
	close(p.jobs)
	task.Gather(y, p.workers...)
}
