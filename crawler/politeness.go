package crawler

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/http1"
)

// judge reads an answer three ways: what it says about the server's pace
// (pushback slows the server down: the frontier's AIMD), about the
// server's next start (Retry-After holds back everything not yet sent to
// it, on every attempt, the last one too), and about this URL (retry or
// not). giveUp is set when the host asked for a wait longer than
// --max_retry_after.
func (c *Crawler) judge(j *frontier.Job, reply *http1.Reply, err error, tries int32) (v verdict, giveUp string) {
	now := c.loop.Time()
	status := 0
	if reply != nil {
		status = reply.StatusCode
	}
	switch {
	case status == 429 || status == 503:
		if c.front.PushedBack(j, now) {
			c.stats.SlowDowns++
		}
	case status >= 500 || err != nil && retryableError(err):
		if c.front.Failed(j, now) {
			c.stats.SlowDowns++
		}
	case err == nil:
		c.front.Succeeded(j)
	}
	retryAfter, hasRetryAfter := time.Duration(0), false
	if status == 429 || status == 503 || IsRedirect(status) {
		retryAfter, hasRetryAfter = parseRetryAfter(reply.Header.Get("Retry-After"), time.Now())
	}
	if hasRetryAfter {
		if retryAfter > c.cfg.MaxRetryAfter {
			return verdict{tries: tries}, fmt.Sprintf("the host asked to wait %v (Retry-After), longer than --max_retry_after %v",
				retryAfter, c.cfg.MaxRetryAfter)
		}
		c.front.HoldUntil(j.Host, now+retryAfter)
		c.keptHold(j, retryAfter)
	}
	retryable := err == nil && retryableStatus(status) || err != nil && retryableError(err)
	if !retryable || tries >= int32(c.cfg.MaxTries) || c.stopping {
		return verdict{tries: tries}, ""
	}
	c.stats.Retries++
	wait := backoff(c.cfg.BackoffBase, int(tries))
	switch {
	case hasRetryAfter:
		wait = 0 // the host's own clock holds the retry back
	case status == 429 || status == 503:
		// A host that pushed back without saying for how long: at least
		// a second, doubling with each try, whatever --backoff says.
		wait = max(wait, pushbackRetryBase<<(tries-1))
	}
	return verdict{retry: true, wait: wait, tries: tries}, ""
}

// failHost gives up on h: every URL queued for it, and every one found
// for it later, is recorded with why.
func (c *Crawler) failHost(h *hostPolicy, why, kind string) {
	if h.failure != "" {
		return
	}
	h.failure, h.failureKind = why, kind
	c.notice(h.host.Origin() + ": " + why)
	c.front.Retire(h.host, func(it frontier.Item) { c.recordHostFailure(h, it) })
}

func (c *Crawler) recordHostFailure(h *hostPolicy, it frontier.Item) {
	c.record(&Record{URL: it.URL, Depth: int(it.Depth), Exception: ptr(h.failure), ErrorKind: h.failureKind})
}

// retryableStatus: the server is busy, overloaded or briefly broken, and
// asking again later may work (the list of the asyncio-and-httpx
// politeness article). Every other 4xx is final:
// 404 stays 404 however often it is asked.
func retryableStatus(code int) bool {
	switch code {
	case 408, 429, 500, 502, 503, 504:
		return true
	}
	return false
}

// retryableError: a failure of the network or of a connection — refused,
// reset, unreachable, timed out, cut short (a TLS handshake too), or a DNS
// server that did not answer — rather than of the content. Anything else
// (a protocol violation, a page over the size limit, an unsupported URL, a
// host that does not exist, a certificate not trusted, a TLS alert, a
// cancellation) would fail the same way again.
func retryableError(err error) bool {
	var sysErr *os.SyscallError
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		return dnsErr.IsTimeout || dnsErr.IsTemporary
	case errors.Is(err, http1.ErrTimeout), errors.Is(err, http1.ErrTruncated):
		return true
	case errors.As(err, &sysErr):
		return true
	}
	return false
}

// pushbackRetryBase is the least a retry waits after a 429 or a 503 that
// named no Retry-After: the first retry a second later, the next two
// seconds after that, and so on. Both statuses say "too much, too fast";
// a bare 429 is not a license to come back sooner than a bare 503.
const pushbackRetryBase = time.Second

// backoff is base × 2^(attempt-1) × uniform(0.5, 1.0): exponential, so a
// struggling server gets room, and jittered, so clients that failed
// together do not all come back together.
func backoff(base time.Duration, attempt int) time.Duration {
	d := base << (attempt - 1)
	return time.Duration(float64(d) * (0.5 + 0.5*rand.Float64()))
}

// parseRetryAfter reads Retry-After in either form (RFC 9110 §10.2.3):
// delay-seconds, or an HTTP-date. Invalid values are ignored (ok false);
// a date in the past means now. It does not cap what it reads: the
// crawler compares it with --max_retry_after, and gives up on the host
// rather than shorten a wait the server asked for.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	var d time.Duration
	if secs, err := strconv.ParseUint(v, 10, 32); err == nil {
		d = time.Duration(secs) * time.Second
	} else if t, ok := parseHTTPDate(v); ok {
		d = t.Sub(now)
	} else {
		return 0, false
	}
	return max(d, 0), true
}

// parseHTTPDate accepts the three date formats RFC 9110 §5.6.7 says a
// recipient must: IMF-fixdate, and the obsolete RFC 850 and asctime forms.
func parseHTTPDate(v string) (time.Time, bool) {
	for _, layout := range []string{
		"Mon, 02 Jan 2006 15:04:05 GMT",
		"Monday, 02-Jan-06 15:04:05 GMT",
		"Mon Jan _2 15:04:05 2006",
	} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
