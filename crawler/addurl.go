package crawler

import (
	"net/url"

	"loopkit/crawler/frontier"
	"loopkit/crawler/urlnorm"
)

// The reasons a found URL is not crawled, as the report tallies them
// ("filtered:scope", ...).
const (
	filterScheme       = "scheme"             // not http or https, or no host
	filterScope        = "scope"              // another site (Config.Lenient says how hosts match)
	filterExclude      = "exclude"            // matches Config.Exclude
	filterDepth        = "depth"              // deeper than Config.MaxDepth
	filterLength       = "url_length"         // longer than Config.MaxURLLength
	filterHostPages    = "max_pages_per_host" // its host has had its share (todo.go)
	filterQueryVariant = "query_variants"     // one path with too many queries: a trap? (todo.go)
)

// follow queues a link or a redirect target if it passes the filters and
// was not seen before: the chapter's url_allowed, then its add_url. It
// reports whether the URL passed, and whether it was new to this loop.
func (c *Crawler) follow(u *url.URL, redirects, depth int) (passed, isNew bool) {
	if reason := c.filter(u, depth); reason != "" {
		c.stats.Filtered[reason]++
		return false, false
	}
	return c.add(u, frontier.Item{URL: u.String(), Redirects: int32(redirects), Depth: int32(depth)})
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

// add is the chapter's add_url: a URL seen before is dropped; a new one
// goes where it is to be fetched (route). Roots come here straight,
// passing no filter (the operator asked for them).
//
// It reports whether the URL passed, and whether it was new here. A URL
// handed over counts as passed, and as new where it goes, so a page's
// num_new_urls counts only the links new to its own loop. A URL its
// host's caps refuse passed too (the caps are not filters), and is not
// new: the same answer the seen set gives the next time it is found.
func (c *Crawler) add(u *url.URL, it frontier.Item) (passed, isNew bool) {
	if !c.seen.add(it) {
		// The chapter's seen_urls. Past Config.SeenMemory, a link memory
		// cannot tell of waits for the disk's answer, and is routed then
		// if new (seen.go): passed, not counted new.
		return true, false
	}
	return c.route(u, it, true)
}

// route sends a new URL where it is to be fetched — the one routing
// step: this loop enters it in its frontier (todo.go); a URL whose server
// another loop owns, or that the fleet places, is handed over (peers,
// extension.go). found says the extensions have not heard of it yet
// (queued): they hear as it enters, once past the caps, or before it
// leaves, so that a journal writes down what is to do and no more. It
// reports what add does.
func (c *Crawler) route(u *url.URL, it frontier.Item, found bool) (passed, isNew bool) {
	if !c.peers.owns(u) {
		if found {
			c.ext.queued(it)
		}
		c.peers.handOver(u, it)
		return true, false
	}
	if reason := c.enter(u, it, found); reason != "" {
		// Refused by its host's caps (todo.go), which are not filters: it
		// passed them, as it will when the seen set knows it next time.
		return true, false
	}
	return true, true
}

// addRoot adds a root: each loop adds the roots its peers say are its own.
func (c *Crawler) addRoot(u *url.URL) {
	c.add(u, frontier.Item{URL: u.String(), Redirects: int32(c.cfg.MaxRedirect)})
}
