package crawler

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/http1"
	"loopkit/crawler/robots"
	"loopkit/crawler/urlnorm"
	"loopkit/future"
	"loopkit/task"
)

// judge reads an answer three ways: what it says about the server's pace
// (pushback slows the server down: the frontier's AIMD), about the
// server's next start (Retry-After holds back everything not yet sent to
// it, on every attempt, the last one too), and about this URL (retry or
// not). giveUp is set when the host asked for a wait longer than
// Config.MaxRetryAfter.
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
			return verdict{tries: tries}, fmt.Sprintf("the host asked to wait %v (Retry-After), longer than the crawl waits for (Config.MaxRetryAfter, %v)",
				retryAfter, c.cfg.MaxRetryAfter)
		}
		h, until := c.hosts[j.Host.Origin()], time.Now().Add(retryAfter)
		c.holdServer(h, until)
		c.ext.serverHeld(h.authority, until)
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
		// a second, doubling with each try, whatever Config.BackoffBase says.
		wait = max(wait, pushbackRetryBase<<(tries-1))
	}
	return verdict{retry: true, wait: wait, tries: tries}, ""
}

// sendGate is what the client asks just before j's request goes on the
// wire, each time, or nil when nothing needs asking. Two things may say
// no. An attempt past Config.MaxTries: a request that died on a
// kept-alive connection is sent again on a fresh one by the client
// itself, and the server sees both, so on the last attempt it is not sent
// again. And the crawl's peers: a process of a fleet sends nothing to a
// host it no longer holds (extension.go). A request refused by its peers
// ends as if cancelled: it is somebody else's to fetch.
func (c *Crawler) sendGate(j *frontier.Job) func() error {
	peers := c.peers.vetSends(j.Host)
	last := int(j.Item.Tries)+1 >= c.cfg.MaxTries
	if peers == nil && !last {
		return nil
	}
	sends := 0
	return func() error {
		switch {
		case last && sends > 0:
			return errLastTry
		case peers != nil && !peers():
			return errNotOurs
		}
		sends++
		return nil
	}
}

var (
	errLastTry = errors.New("the kept-alive connection died under the request, and no try is left to send it again on a fresh one (Config.MaxTries)")
	errNotOurs = fmt.Errorf("%w: its host is no longer this process's to fetch", future.ErrCancelled)
)

// failHost gives up on h: every URL queued for it, and every one found
// for it later, is recorded with why.
func (c *Crawler) failHost(h *hostPolicy, why, kind string) {
	if h.failure != "" {
		return
	}
	h.failure, h.failureKind = why, kind
	c.notice(h.host.Origin() + ": " + why)
	c.front.Retire(h.host, func(it frontier.Item) { c.recordHostFailure(h, it) })
	c.refill(h.host) // its URLs on disk, if any, are recorded too
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
// crawler compares it with Config.MaxRetryAfter, and gives up on the host
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

const (
	robotsTTL = 24 * time.Hour // RFC 9309 §2.4: cache no longer than 24 hours
	// robotsMaxBytes is how much of a robots.txt is read and parsed,
	// whatever Config.HTTP's body limit says: RFC 9309 §2.5 asks for at least 500 KiB.
	// A longer file is cut there, not refused.
	robotsMaxBytes = 512 << 10
)

// fetchRobots is a host's gate, its first job: fetch its robots.txt,
// through the host's own politeness (it is a request to the host like any
// other, and Crawl-delay counts from it), and decide what the host's pages
// may do. Redirects and retries go back through the frontier as the same
// gate.
func (c *Crawler) fetchRobots(y task.Yield, j *frontier.Job) verdict {
	h, it := c.hosts[j.Host.Origin()], j.Item
	tries := it.Tries + 1
	c.stats.RobotsFetches++
	req := http1.Request{URL: it.URL, MaxBodyBytes: robotsMaxBytes, TruncateBody: true}
	reply, err := c.request(y, j, req)
	if errors.Is(err, future.ErrCancelled) {
		return verdict{retry: true, tries: it.Tries} // an interrupt: nothing was decided
	}
	defer release(reply) // what the host learns of it is copied out first
	v, giveUp := c.judge(j, reply, err, tries)
	switch {
	case giveUp != "":
		c.failHost(h, "robots.txt: "+giveUp, ErrorKindRobots)
		return verdict{}
	case v.retry:
		return v
	case err != nil:
		c.failHost(h, "robots.txt: "+err.Error()+unreachable(tries), ErrorKindRobots)
		return verdict{}
	}
	switch robots.ForStatus(reply.StatusCode) {
	case robots.UseBody:
		// A Crawl-delay counts from this request, so the first page waits too.
		c.robotsKnown(h, reply.Body)
	case robots.FollowRedirect:
		return c.robotsRedirect(j, reply)
	case robots.Unavailable:
		c.robotsKnown(h, nil)
	default: // 5xx or 429, retried until MaxTries: the rules could say anything
		c.failHost(h, fmt.Sprintf("robots.txt: status %d%s", reply.StatusCode, unreachable(tries)), ErrorKindRobots)
	}
	return verdict{}
}

// robotsRedirect follows a robots.txt redirect (RFC 9309 §2.3.1.2: up to
// five, even to another host) by queueing the same gate with the new
// target. Too many, or no usable Location, means there is no file.
func (c *Crawler) robotsRedirect(j *frontier.Job, reply *http1.Reply) verdict {
	from, _ := url.Parse(j.Item.URL)
	next, err := urlnorm.Resolve(from, reply.Header.Get("Location"))
	if err != nil || j.Item.Redirects <= 0 {
		c.robotsKnown(c.hosts[j.Host.Origin()], nil)
		return verdict{}
	}
	return verdict{retry: true, redirectTo: next.String()} // through the frontier again, tries anew
}

// robotsKnown is what fetchRobots learnt of h: its robots.txt, body (nil:
// there is none), valid for a day. The host learns it (todo.go), and the
// extensions hear of it, so that a resumed crawl, or the next process on
// the host, does not fetch it again before then.
func (c *Crawler) robotsKnown(h *hostPolicy, body []byte) {
	until := time.Now().Add(robotsTTL)
	c.learnRobots(h, body, until)
	c.ext.robotsLearnt(h.host.Origin(), body, until)
}

// robotsAllow says whether h's rules let rawURL be fetched, and notes it
// when they do not.
func (c *Crawler) robotsAllow(h *hostPolicy, rawURL string) bool {
	if h.rules == nil {
		return true
	}
	u, err := url.Parse(rawURL)
	if err != nil || h.rules.Allowed(u.RequestURI()) {
		return true
	}
	c.stats.RobotsDisallowed++
	c.roots.noteDisallowed(rawURL)
	c.ext.dropped(rawURL)
	if c.listed.keep() {
		c.disallowed = append(c.disallowed, rawURL)
	} else {
		c.disallowed = nil
	}
	if c.cfg.OnDisallowed != nil {
		c.out.call(func() { c.cfg.OnDisallowed(rawURL) })
	}
	return false
}

// unreachable says what RFC 9309 §2.3.1.4 makes of a robots.txt that could
// not be read.
func unreachable(tries int32) string {
	return fmt.Sprintf(" (after %d tries): unreachable, so nothing on the host is crawled (RFC 9309 §2.3.1.4)", tries)
}

// productToken is the name part of a User-Agent ("loopkit" of
// "loopkit/0.1 (+…)"), which robots.txt groups are matched against.
func productToken(userAgent string) string {
	token, _, _ := strings.Cut(userAgent, "/")
	token, _, _ = strings.Cut(token, " ")
	return token
}
