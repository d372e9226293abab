package crawler

import (
	"fmt"
	"net/url"

	"loopkit/crawler/frontier"
	"loopkit/crawler/robots"
	"loopkit/crawler/urlnorm"
)

// The reasons a found URL is not crawled, as the report tallies them
// ("filtered:scope", ...).
const (
	filterScheme       = "scheme"             // not http or https, or no host
	filterScope        = "scope"              // another site (--strict / --lenient)
	filterExclude      = "exclude"            // matches --exclude
	filterDepth        = "depth"              // deeper than --max_depth
	filterLength       = "url_length"         // longer than --max_url_length
	filterHostPages    = "max_pages_per_host" // its host has had its share
	filterQueryVariant = "query_variants"     // one path with too many queries: a trap?
)

// hostPolicy is what the crawler decided of one host (an origin), beside
// what the frontier keeps of it: its robots.txt rules, whether it was
// given up and why, and how many of its URLs were accepted.
type hostPolicy struct {
	host        *frontier.Host
	rules       *robots.Rules // nil until robots.txt is known (or with robots.txt off)
	failure     string        // once set, why nothing more is fetched from it
	failureKind string        // the records' error_kind
	pages       int           // URLs accepted for it, for --max_pages_per_host
	spilled     *hostSpill    // its URLs on disk, when its queue overflowed (spill.go)
}

// follow queues a link or a redirect target if it passes the filters and
// was not seen before. It reports whether it passed, and whether it was new.
//
// With several loops (Group), a link for a server another loop owns
// passes the filters any loop can apply, then goes to that loop, which
// applies the rest: it counts as passed here, and as new there, so
// num_new_urls counts only the new links of the page's own loop.
func (c *Crawler) follow(u *url.URL, redirects, depth int) (passed, isNew bool) {
	reason := c.filter(u, depth)
	if reason == "" && !c.owns(u) {
		c.handOver(u, redirects, depth)
		return true, false
	}
	if reason == "" {
		reason = c.ownedFilter(u)
	}
	if reason != "" {
		c.stats.Filtered[reason]++
		return false, false
	}
	return true, c.addURL(u, redirects, depth)
}

// filter says why u is not crawled, or "" if it may be: the checks every
// URL passes, links and redirect targets alike, that need no state.
func (c *Crawler) filter(u *url.URL, depth int) string {
	switch {
	case !urlnorm.Crawlable(u):
		return filterScheme
	case !c.scope.Allowed(u):
		return filterScope
	case c.cfg.Exclude != nil && c.cfg.Exclude.MatchString(u.String()):
		return filterExclude
	case c.cfg.MaxDepth > 0 && depth > c.cfg.MaxDepth:
		return filterDepth
	case len(u.String()) > c.cfg.MaxURLLength:
		return filterLength
	}
	return ""
}

// ownedFilter says why u is not crawled by the checks that need the
// crawl's state of u's host: only the loop that owns it can apply them.
func (c *Crawler) ownedFilter(u *url.URL) string {
	if c.seen.Has(u.String()) {
		return "" // not new: the caps below were applied when it was
	}
	if h := c.hosts[origin(u)]; h != nil && c.cfg.MaxPagesPerHost > 0 && h.pages >= c.cfg.MaxPagesPerHost {
		c.notice(fmt.Sprintf("%s: --max_pages_per_host %d reached, more of its URLs are not followed", origin(u), c.cfg.MaxPagesPerHost))
		return filterHostPages
	}
	if u.RawQuery != "" && c.cfg.MaxQueryVariants > 0 && c.variants[pathKey(u)] >= c.cfg.MaxQueryVariants {
		c.notice(fmt.Sprintf("%s: more than %d different queries, more are not followed (--max_query_variants; a calendar or a search trap?)",
			pathKey(u), c.cfg.MaxQueryVariants))
		return filterQueryVariant
	}
	return ""
}

// addURL adds u to its host's queue unless it was seen before, and
// reports whether it was new: the chapter's add_url. Roots come here
// straight, passing no filter but the seen set (the operator asked for
// them); links and redirect targets come through follow. A host given up
// records its URLs at once; one whose robots.txt is known screens them
// now.
func (c *Crawler) addURL(u *url.URL, redirects, depth int) bool {
	return c.add(u, redirects, depth, true)
}

// add is addURL; journal says whether the journal hears of it here (a
// link another loop found was journaled there: shard.go).
func (c *Crawler) add(u *url.URL, redirects, depth int, journal bool) bool {
	s := u.String()
	if !c.seen.Add(s) {
		return false
	}
	if u.RawQuery != "" {
		c.variants[pathKey(u)]++
	}
	if c.cfg.Shared != nil {
		c.cfg.Shared.Found(s, int32(depth), int32(redirects)) // the fleet queues it, and may offer it back
		return true
	}
	h := c.host(u)
	h.pages++
	it := frontier.Item{URL: s, Redirects: int32(redirects), Depth: int32(depth)}
	switch {
	case h.failure != "":
		c.recordHostFailure(h, it)
	case h.rules != nil && !c.robotsAllow(h, s):
	default:
		if journal {
			c.queued(s, it.Depth, it.Redirects)
		}
		c.queue(h, it)
	}
	return true
}

// queue puts it on h's queue: in the frontier, or on disk if the crawl's
// queue is over its memory (spill.go).
func (c *Crawler) queue(h *hostPolicy, it frontier.Item) {
	if c.spillNeeded(h) {
		if err := c.spillURL(h, it); err != nil {
			c.storeFailed(fmtSpill(err))
		}
		return
	}
	c.front.Push(h.host, it, c.loop.Time())
	c.dispatch()
}

// host is u's host, created on first sight: its robots.txt is its gate,
// the first job the frontier hands out for it.
func (c *Crawler) host(u *url.URL) *hostPolicy {
	o := origin(u)
	h := c.hosts[o]
	if h == nil {
		h = &hostPolicy{host: c.front.Host(o, authority(u))}
		c.hosts[o] = h
		if !c.cfg.NoRobots {
			c.front.Gate(h.host, frontier.Item{URL: o + "/robots.txt", Redirects: robots.MaxRedirects})
		}
	}
	return h
}

// authority is what a server is keyed by: the host and port of u, which
// urlnorm has written without the scheme's default port.
func authority(u *url.URL) string { return u.Host }

// origin is the scheme and authority of u: what a host is keyed by.
func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// pathKey is what --max_query_variants counts queries under.
func pathKey(u *url.URL) string { return origin(u) + u.EscapedPath() }
