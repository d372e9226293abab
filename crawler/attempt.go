package crawler

import (
	"time"

	"loopkit/crawler/http1"
)

// Attempt is one request the crawler made: which URL, which try, when it
// had joined its host's queue, and — from the HTTP client's Trace — the
// connection that carried it and when each phase ended. Config.OnAttempt
// hears of each; cmd/crawl's --timeline draws them.
type Attempt struct {
	URL    string
	Robots bool          // a robots.txt fetch, not a page
	Try    int           // 1 for the first attempt
	Queued time.Duration // loop time the URL (re)entered its host's queue
	Trace  http1.Trace   // Trace.Start is when the request left the frontier
	Status int           // 0 when no response came
	Err    string        // why it failed, if it did
}

// traceFor asks the client to trace req, when someone listens.
func (c *Crawler) traceFor(req *http1.Request) *http1.Trace {
	if c.cfg.OnAttempt == nil {
		return nil
	}
	req.Trace = new(http1.Trace)
	return req.Trace
}

// attempted tells Config.OnAttempt about a request that ended.
func (c *Crawler) attempted(j job, trace *http1.Trace, reply *http1.Reply, err error) {
	if trace == nil {
		return
	}
	a := &Attempt{URL: j.item.url, Robots: j.robots, Try: int(j.item.tries) + 1,
		Queued: time.Duration(j.item.queuedMS) * time.Millisecond, Trace: *trace}
	if reply != nil {
		a.Status = reply.StatusCode
	}
	if err != nil {
		a.Err = err.Error()
	}
	c.cfg.OnAttempt(a)
}
