// Package crawlrules is the crawl that the benchmark's S4 scenario asks of
// every client variant: which URLs to fetch, in what order, and what to
// learn from each response, by the crawler's own rules. It sits in
// bench/, under the variants (bench/reactor, bench/baseline) that drive
// it with their own concurrency, and over the crawler's pure helpers,
// which it reuses so that every variant crawls by exactly the crawler's
// rules:
//
//   - crawler.ParseRoot for the root, urlnorm.Scope (strict) for the host
//     scope, urlnorm.Seen for "fetched once";
//   - a redirect (crawler.IsRedirect) has its Location, resolved against
//     the request URL, as one more link, with at most MaxRedirect
//     redirects followed in a chain;
//   - links come from crawler.ParsePage, the crawler's own reading of a
//     page (its charset, then its links), only for 2xx responses whose
//     media type is HTML.
//
// robots.txt is not read: the site is ours, and the crawler variant runs
// with NoRobots too, so all of them fetch the same set of URLs, which the
// harness checks.
//
// It is not the crawler's frontier (crawler/frontier), which is polite
// and knows hosts: the site here is one host and ours, and every variant
// brings its own concurrency. A Crawl is not safe for concurrent use,
// except for Follow: the
// reactor variants own it from their loop, the net/http variants take a
// lock around everything else.
package crawlrules

import (
	"net/url"

	"loopkit/crawler"
	"loopkit/crawler/http1"
	"loopkit/crawler/links"
	"loopkit/crawler/urlnorm"
)

// MaxRedirect is the crawler's default: redirects followed from one URL.
const MaxRedirect = 10

// Item is one URL to fetch.
type Item struct {
	URL       string
	redirects int // redirects still allowed from here
}

// Response is what a variant got for an Item, whichever client it used.
type Response struct {
	Status      int
	ContentType string // the Content-Type field
	Location    string // the Location field
	Body        []byte
}

// Crawl is a crawl in progress: the queue, the seen set, and the list
// of URLs fetched so far.
type Crawl struct {
	scope   *urlnorm.Scope
	seen    urlnorm.Seen
	queue   []Item
	fetched []string
}

// New starts a crawl at root.
func New(root string) (*Crawl, error) {
	u, err := crawler.ParseRoot(root)
	if err != nil {
		return nil, err
	}
	f := &Crawl{scope: urlnorm.NewScope([]*url.URL{u}, false)}
	f.add(u.String(), MaxRedirect)
	return f, nil
}

// Next takes the next URL to fetch, if any is queued. An empty queue does
// not mean the crawl is over: responses still to come may add to it.
func (f *Crawl) Next() (Item, bool) {
	if len(f.queue) == 0 {
		return Item{}, false
	}
	it := f.queue[0]
	f.queue[0] = Item{}
	f.queue = f.queue[1:]
	return it, true
}

// Queued is the number of URLs waiting to be fetched.
func (f *Crawl) Queued() int { return len(f.queue) }

// Fetched are the URLs handed to Visit or Failed so far, in that order.
func (f *Crawl) Fetched() []string { return f.fetched }

// Failed records that it could not be fetched at all.
func (f *Crawl) Failed(it Item) { f.fetched = append(f.fetched, it.URL) }

// Visit records that it was fetched and queues the new URLs the response
// leads to: Record(it, Follow(it, r)). It reports false for a response
// the crawler counts as an error: a page whose links could not be
// extracted.
func (f *Crawl) Visit(it Item, r Response) bool {
	next, ok := f.Follow(it, r)
	f.Record(it, next)
	return ok
}

// Follow returns the URLs a response leads to, filtered but not yet
// checked against the seen set: a redirect's target, or a page's links.
// It only reads the Crawl's fixed rules, so unlike every other method
// it may run concurrently with anything: the net/http variants extract
// links in their own goroutines, on every core, and take their lock only
// for Record. It reports false if the links could not be extracted.
func (f *Crawl) Follow(it Item, r Response) ([]Item, bool) {
	page, err := url.Parse(it.URL)
	if err != nil {
		return nil, false
	}
	switch {
	case crawler.IsRedirect(r.Status):
		next, err := urlnorm.Resolve(page, r.Location)
		if err == nil && r.Location != "" && it.redirects > 0 && f.scope.Allowed(next) {
			return []Item{{URL: next.String(), redirects: it.redirects - 1}}, true
		}
	case r.Status/100 == 2 && links.IsHTML(http1.MediaType(r.ContentType)):
		_, found, err := crawler.ParsePage(r.ContentType, r.Body, page)
		if err != nil {
			return nil, false
		}
		var next []Item
		for _, link := range found {
			if f.scope.Allowed(link) {
				next = append(next, Item{URL: link.String(), redirects: MaxRedirect})
			}
		}
		return next, true
	}
	return nil, true
}

// Record records that it was fetched, and queues those of next that were
// never seen before.
func (f *Crawl) Record(it Item, next []Item) {
	f.fetched = append(f.fetched, it.URL)
	for _, n := range next {
		f.add(n.URL, n.redirects)
	}
}

func (f *Crawl) add(u string, redirects int) {
	if f.seen.Add(u) {
		f.queue = append(f.queue, Item{URL: u, redirects: redirects})
	}
}
