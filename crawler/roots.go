package crawler

import (
	"fmt"
	"slices"
)

// FailedRoots says which roots could not be crawled, and why: no answer,
// an error status, or robots.txt forbidding or hiding it — following the
// root's redirects to where they lead. A root left unfetched by an
// interrupt or the page budget is not a failure, and neither is one whose
// redirect leaves the crawl's scope.
func (c *Crawler) FailedRoots() []string { return c.view().failedRoots() }

func (c view) failedRoots() []string {
	byURL := make(map[string]*Record, len(c.records))
	for _, r := range c.records {
		byURL[r.URL] = r
	}
	var failed []string
	for _, root := range c.roots {
		if why := c.rootFailure(root.String(), byURL); why != "" {
			failed = append(failed, root.String()+": "+why)
		}
	}
	return failed
}

func (c view) rootFailure(u string, byURL map[string]*Record) string {
	for hops := 0; hops <= c.cfg.MaxRedirect; hops++ {
		r := byURL[u]
		switch {
		case r == nil && slices.Contains(c.disallowed, u):
			return "disallowed by robots.txt"
		case r == nil:
			return ""
		case r.Status == nil:
			return *r.Exception
		case r.Exception != nil:
			return fmt.Sprintf("status %d: %s", *r.Status, *r.Exception)
		case r.NextURL != nil:
			u = *r.NextURL
			continue
		case *r.Status >= 400:
			return fmt.Sprintf("status %d", *r.Status)
		}
		return ""
	}
	return ""
}
