package crawler

import (
	"errors"
	"net/url"
	"strings"
	"time"

	"loopkit/crawler/robots"
	"loopkit/crawler/urlnorm"
	"loopkit/future"
	"loopkit/task"
)

// robotsCache holds the robots.txt rules of each authority (scheme, host
// and port: RFC 9309 §2.3 scopes a robots.txt to exactly that). The first
// URL of an authority fetches the file; URLs arriving meanwhile wait for
// the same fetch.
type robotsCache struct {
	crawler *Crawler
	entries map[string]*robotsEntry
}

type robotsEntry struct {
	rules   *robots.Rules
	err     error // the fetch was cancelled: no answer
	ready   task.Event
	expires time.Duration // loop time
}

const (
	robotsTTL      = 24 * time.Hour  // RFC 9309 §2.4: no longer than 24 hours
	robotsErrorTTL = 5 * time.Minute // a 5xx or unreachable file is tried again after this
	robotsMaxBytes = 512 * 1024      // parse at least 500 KiB (robots.Parse stops there)
)

func (rc *robotsCache) rulesFor(y task.Yield, u *url.URL) (*robots.Rules, error) {
	origin := u.Scheme + "://" + u.Host
	now := y.Loop().Time()
	e := rc.entries[origin]
	if e == nil || (e.ready.IsSet() && now >= e.expires) {
		// Until the fetch says otherwise: disallow, and expired at once,
		// so that a fetch that panics leaves no waiter stuck and no rule
		// cached.
		e = &robotsEntry{rules: robots.DisallowAll(), expires: now}
		rc.entries[origin] = e
		defer e.ready.Set()
		rules, expires, err := rc.fetch(y, origin, u.Host)
		if err != nil { // cancelled: decide nothing, the next URL asks again
			e.err = err
			return nil, err
		}
		e.rules, e.expires = rules, expires
		return rules, nil
	}
	if err := e.ready.Wait(y); err != nil {
		return nil, err
	}
	if e.err != nil {
		return nil, e.err
	}
	return e.rules, nil
}

// fetch gets and parses origin's robots.txt and says until when to trust
// the answer; robots.ForStatus says what each status means (RFC 9309
// §2.3.1). A 5xx, a 429 or no answer at all means "assume complete
// disallow" until the file is tried again, a few minutes later.
func (rc *robotsCache) fetch(y task.Yield, origin, host string) (*robots.Rules, time.Duration, error) {
	c := rc.crawler
	now := y.Loop().Time()
	target := origin + "/robots.txt"
	for range robots.MaxRedirects + 1 {
		c.stats.RobotsFetches++
		u, err := url.Parse(target)
		if err != nil {
			break
		}
		reply, _, err := c.fetch(y, target, u.Host)
		if errors.Is(err, future.ErrCancelled) {
			return nil, 0, err
		}
		if err != nil || reply == nil {
			return robots.DisallowAll(), now + robotsErrorTTL, nil
		}
		switch robots.ForStatus(reply.StatusCode) {
		case robots.UseBody:
			rules := robots.Parse(reply.Body, productToken(c.cfg.UserAgent))
			if d, ok := rules.CrawlDelay(); ok {
				g := c.gateFor(host) // the file speaks for its own host, wherever it was served from
				g.spacing = max(g.spacing, min(d, c.cfg.MaxCrawlDelay))
			}
			return rules, now + robotsTTL, nil
		case robots.FollowRedirect:
			next, err := urlnorm.Resolve(u, reply.Header.Get("Location"))
			if err != nil {
				return robots.AllowAll(), now + robotsTTL, nil
			}
			target = next.String()
		case robots.Unavailable:
			return robots.AllowAll(), now + robotsTTL, nil
		default:
			return robots.DisallowAll(), now + robotsErrorTTL, nil
		}
	}
	// No usable Location, or too many redirects: unavailable (§2.3.1.2).
	return robots.AllowAll(), now + robotsTTL, nil
}

// productToken is the name part of a User-Agent ("loopkit" of
// "loopkit/0.1 (+…)"), which robots.txt groups are matched against.
func productToken(userAgent string) string {
	token, _, _ := strings.Cut(userAgent, "/")
	token, _, _ = strings.Cut(token, " ")
	return token
}
