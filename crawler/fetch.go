package crawler

import (
	"time"

	"loopkit/crawler/http1"
	"loopkit/task"
)

// fetch gets rawURL through its host's gate, retrying what is worth
// retrying: a transient status (408, 429, 5xx but 501) or a network error,
// up to MaxTries attempts in all. Between attempts it waits the server's
// Retry-After if it gave one — and holds back the whole host that long —
// or else an exponential backoff with jitter. It returns the last reply
// (nil if none came), how many attempts it made, and the last error.
func (c *Crawler) fetch(y task.Yield, rawURL, host string) (*http1.Reply, int, error) {
	g := c.gateFor(host)
	for tries := 1; ; tries++ {
		if err := g.enter(y); err != nil {
			return nil, tries, err
		}
		c.stats.InFlight++
		reply, err := c.client.Get(y, rawURL)
		c.stats.InFlight--
		g.leave()
		if reply != nil {
			g.answered(reply.StatusCode)
		}
		switch {
		case err == nil && !retryableStatus(reply.StatusCode):
			return reply, tries, nil
		case err != nil && !retryableError(err):
			return nil, tries, err
		case tries >= c.cfg.MaxTries:
			return reply, tries, err
		}
		c.stats.Retries++
		wait := backoff(c.cfg.BackoffBase, tries)
		if reply != nil {
			if d, ok := parseRetryAfter(reply.Header.Get("Retry-After"), time.Now()); ok {
				// The gate makes every request to the host wait, this one too.
				g.holdUntil(y.Loop().Time() + d)
				wait = 0
			}
		}
		if err := task.Sleep(y, wait); err != nil {
			return reply, tries, err
		}
	}
}

// gateFor returns the politeness gate of a host (host:port).
func (c *Crawler) gateFor(host string) *gate {
	g := c.gates[host]
	if g == nil {
		g = newGate(c.cfg.PerHost, c.cfg.Delay, c.cfg.Jitter)
		c.gates[host] = g
	}
	return g
}
