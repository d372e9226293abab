package crawler

import (
	"errors"
	"fmt"
	"time"

	"loopkit/crawler/http1"
	"loopkit/crawler/links"
	"loopkit/future"
	"loopkit/task"
)

// runPage makes one attempt at a page and records what came of it, or
// asks for another attempt.
func (c *Crawler) runPage(y task.Yield, j job) verdict {
	it := j.item
	tries := it.tries + 1
	start := time.Now()
	c.stats.InFlight++
	req := c.pageRequest(it.url)
	trace := c.traceFor(&req)
	reply, err := c.client.Fetch(y, req)
	c.attempted(j, trace, reply, err)
	c.stats.InFlight--
	if errors.Is(err, future.ErrCancelled) {
		c.stats.Cancelled++ // cut short by an interrupt: still to do
		return verdict{}
	}
	if errors.Is(err, http1.ErrRetried) || reply != nil && reply.Retried {
		tries++ // the client sent it twice: a dead pooled connection, then a fresh one
	}
	v, giveUp := c.judge(j, reply, err, tries)
	if v.retry {
		return v
	}
	rec := &Record{URL: it.url, Depth: int(it.depth), Tries: int(tries)}
	rec.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	if reply == nil {
		rec.Exception, rec.ErrorKind = ptr(err.Error()), errorKind(err)
		c.record(rec)
		return v
	}
	if err != nil { // a response came earlier, but the last retry failed
		rec.Exception, rec.ErrorKind = ptr(err.Error()), errorKind(err)
	}
	c.describeReply(y, rec, reply, j)
	if giveUp != "" {
		rec.Exception, rec.ErrorKind = ptr(giveUp), kindRetryAfter
	}
	c.record(rec)
	if giveUp != "" {
		c.failHost(j.host, "not fetched: "+giveUp, kindRetryAfter)
	}
	return v
}

// judge reads an answer three ways: what it says about the host's pace
// (pushback slows the host down), about the host's next start
// (Retry-After holds back everything not yet sent to it, on every attempt,
// the last one too), and about this URL (retry or not). giveUp is set when
// the host asked for a wait longer than --max_retry_after.
func (c *Crawler) judge(j job, reply *http1.Reply, err error, tries int32) (v verdict, giveUp string) {
	h, now := j.host, c.loop.Time()
	p := &h.server.pace
	status := 0
	if reply != nil {
		status = reply.StatusCode
	}
	switch {
	case status == 429 || status == 503:
		if p.pushedBack(j.epoch, now) {
			c.stats.SlowDowns++
		}
		c.front.holdUntil(h, now+p.gap())
	case status >= 500 || err != nil && retryableError(err):
		if p.failed(now) {
			c.stats.SlowDowns++
			c.front.holdUntil(h, now+p.gap())
		}
	case err == nil:
		p.succeeded()
	}
	retryAfter, hasRetryAfter := time.Duration(0), false
	if status == 429 || status == 503 || isRedirect(status) {
		retryAfter, hasRetryAfter = parseRetryAfter(reply.Header.Get("Retry-After"), time.Now())
	}
	if hasRetryAfter {
		if retryAfter > c.cfg.MaxRetryAfter {
			return verdict{tries: tries}, fmt.Sprintf("the host asked to wait %v (Retry-After), longer than --max_retry_after %v",
				retryAfter, c.cfg.MaxRetryAfter)
		}
		c.front.holdUntil(h, now+retryAfter)
	}
	retryable := err == nil && retryableStatus(status) || err != nil && retryableError(err)
	if !retryable || tries >= int32(c.cfg.MaxTries) || c.stopping {
		return verdict{tries: tries}, ""
	}
	c.stats.Retries++
	wait := backoff(c.cfg.BackoffBase, int(tries))
	if hasRetryAfter {
		wait = 0 // the host's own clock holds the retry back
	}
	return verdict{retry: true, wait: wait, tries: tries}, ""
}

// pageRequest is the request for a page. Only the body of a successful
// HTML answer is read, unless --all_bodies asks for every body: a PDF, a
// zip or an error page would be downloaded for nothing.
func (c *Crawler) pageRequest(url string) http1.Request {
	req := http1.Request{URL: url}
	if !c.cfg.AllBodies {
		req.WantBody = wantBody
	}
	return req
}

func wantBody(head *http1.Response) bool {
	return head.StatusCode/100 == 2 && links.IsHTML(http1.MediaType(head.Header.Get("Content-Type")))
}

// failHost gives up on h: every URL queued for it, and every one found
// for it later, is recorded with why.
func (c *Crawler) failHost(h *host, why, kind string) {
	if h.failure != "" {
		return
	}
	h.failure, h.failureKind = why, kind
	c.notice(h.origin + ": " + why)
	c.front.drain(h, func(it item) { c.recordHostFailure(h, it) })
}

func (c *Crawler) recordHostFailure(h *host, it item) {
	c.record(&Record{URL: it.url, Depth: int(it.depth), Exception: ptr(h.failure), ErrorKind: h.failureKind})
}
