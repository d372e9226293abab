package crawler

import (
	"errors"
	"net/url"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/http1"
	"loopkit/crawler/urlnorm"
	"loopkit/loop"
	"loopkit/task"
)

// crawl is what the loops of one crawl share: the budget they take from
// (with the parse pool), the store they write to, and the report's lists.
// A lone Crawler's crawl has one loop; a Group's has several.
type crawl struct {
	crawlers []*Crawler
	shards   []*shard // a Group of several loops: each loop's peers; nil otherwise
	budget   *budget
	store    *store
	listed   *reportList
	roots    *rootWatch
}

// assemble prepares a crawl on loops: a Crawler per loop, each with its
// peers (alone, a Group's shards, or the fleet) and its extensions (the
// writer of the output and state directory, the fleet), and what they
// share. Then it brings back a stopped crawl from the state directory. g
// is the Group the loops make (nil: a Crawler on its own).
func assemble(loops []*loop.Loop, cfg Config, g *Group) (*crawl, error) {
	cfg = cfg.withDefaults()
	if len(cfg.Roots) == 0 {
		return nil, errors.New("crawler: no roots")
	}
	if cfg.Shared != nil {
		if len(loops) > 1 {
			return nil, errors.New("crawler: a shared crawl runs on one loop per process (add processes, not loops)")
		}
		// A fleet's window bounds the URLs a process holds: none spill.
		// Its seen set answers at once: a page is settled with the fleet
		// only after the links it found are (the fleet's seen set, in
		// Redis, is the crawl's).
		cfg.QueueMemory, cfg.SeenMemory = -1, -1
		// A host's share is counted by the fleet, for the whole crawl: a
		// process's own count would start from nothing whenever a host
		// changed hands, and count a URL put back twice.
		cfg.MaxPagesPerHost, cfg.MaxQueryVariants = 0, -1
	}
	var roots []*url.URL
	for _, r := range cfg.Roots {
		u, err := ParseRoot(r)
		if err != nil {
			return nil, err
		}
		roots = append(roots, u)
	}
	pool := newParsePool(cfg.ParseWorkers, cfg.MaxTasks, cfg.ParseInlineBelow, cfg.ParseBudget)
	pool.observe = cfg.OnParse
	cr := &crawl{budget: newBudget(cfg, pool), listed: &reportList{limit: int64(cfg.ReportURLs)},
		roots: newRootWatch(roots)}
	var out *sink // serializes the callbacks of a Group's loops
	if g != nil {
		out = &sink{}
	}
	for i, l := range loops {
		c := newCrawler(l, cfg, cr, roots, out)
		c.index = i
		switch {
		case cfg.Shared != nil:
			c.peers = sharedCrawl{c: c, s: cfg.Shared}
		case len(loops) > 1:
			s := &shard{c: c, index: i, group: g, outbox: make([][]link, len(loops))}
			cr.shards = append(cr.shards, s)
			c.peers = s
		default:
			c.peers = alone{c}
		}
		cr.crawlers = append(cr.crawlers, c)
	}
	if g != nil {
		g.crawlers, g.shards = cr.crawlers, cr.shards
		g.work.Store(int64(len(cr.shards))) // every shard starts awake, and says when it is not
	}
	s, err := openStore(cfg, cr.crawlers[0].notice)
	if err != nil {
		return nil, err
	}
	cr.store = s
	s.budget = cr.budget
	for _, c := range cr.crawlers {
		c.overflow = newOverflow(c, s)
		c.seen.init(c, s, seenShare(cfg.SeenMemory, len(cr.crawlers)))
		var w *writer
		if s.writes() {
			w = &writer{c: c, store: s}
			c.ext = append(c.ext, w)
		}
		if cfg.Shared != nil { // after the writer, and through it: a page's line is written before it is settled
			shared := sharedCrawl{c: c, s: cfg.Shared}
			if s.output != nil {
				shared.w = w
			}
			c.ext = append(c.ext, shared)
		}
		c.ext = append(c.ext, &c.seen) // after them: its files go once the crawl is over
	}
	if err := s.replay(cfg, cr.crawlers, g, cr.crawlers[0].notice); err != nil {
		return nil, err
	}
	return cr, nil
}

// newCrawler prepares one loop's part of cr.
func newCrawler(l *loop.Loop, cfg Config, cr *crawl, roots []*url.URL, out *sink) *Crawler {
	c := &Crawler{cfg: cfg, loop: l, rootURLs: roots, budget: cr.budget, parser: cr.budget.parse,
		listed: cr.listed, roots: cr.roots, out: out,
		variants: make(map[string]int), hosts: make(map[string]*hostPolicy)}
	c.rootSet = make(map[string]bool, len(roots))
	for _, u := range roots {
		c.rootSet[u.String()] = true
	}
	c.front = frontier.New(frontier.Options{PerHost: cfg.PerHost, Delay: cfg.Delay, Jitter: cfg.Jitter, Admit: c.admit})
	c.dispatcher.init(l)
	c.scope = urlnorm.NewScope(roots, cfg.Lenient)
	c.client = http1.NewClient(l, cfg.HTTP)
	c.stats.Filtered = make(map[string]int)
	c.stats.Kinds = make(map[string]int)
	cr.budget.crawlers = append(cr.budget.crawlers, c)
	return c
}

// assembleAlone prepares a crawl on one loop, for New: the Crawler starts
// and stops what a Group would for its loops, the parse workers and the
// store (owned, below).
func assembleAlone(l *loop.Loop, cfg Config) (*Crawler, error) {
	cr, err := assemble([]*loop.Loop{l}, cfg, nil)
	if err != nil {
		return nil, err
	}
	c := cr.crawlers[0]
	c.ext = append(c.ext, owned{c: c, store: cr.store}) // last: it closes what the others wrote to
	return c, nil
}

// owned is the extension of a Crawler on its own: it starts the parse
// workers on the crawler's loop, and at the end stops them and closes the
// store.
type owned struct {
	c     *Crawler
	store *store
}

func (o owned) started()                               { o.c.parser.start(o.c.loop) }
func (o owned) queued(frontier.Item)                   {}
func (o owned) sent(string)                            {}
func (o owned) recorded(*Record)                       {}
func (o owned) dropped(string)                         {}
func (o owned) robotsLearnt(string, []byte, time.Time) {}
func (o owned) serverHeld(string, time.Time)           {}
func (o owned) jobEnds(task.Yield)                     {}
func (o owned) abandon() error                         { return o.store.close() }

func (o owned) finish(y task.Yield) error {
	o.c.parser.close(y)
	o.store.end(o.c.complete() && o.store.failed() == nil)
	return o.store.close()
}
