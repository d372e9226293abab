package crawler

import (
	"io"
	"runtime"
	"sync/atomic"
	"time"

	"loopkit/loop"
	"loopkit/task"
)

// Group is one crawl run by several loops, a loop.Group: one Crawler per
// loop, each owning the servers whose names hash to it (shard.go). Each
// shard is the single-loop crawler unchanged — its frontier, gates,
// connections, robots.txt cache and seen set are its own, used by its
// loop alone, with no lock — and a link found on one loop for a server
// another owns crosses over with CallSoonThreadsafe, in a batch per turn.
//
// Two counters are shared, atomics both: work, the shards that have
// something left plus the batches on their way (the crawl is over when it
// falls to zero: nothing anywhere, and nothing in transit to wake anyone),
// and the pages started, for MaxPages. With N loops the page budget may
// be overshot by N−1 pages: each other loop may start one page before it
// sees the budget spent, and then stops itself.
//
// Sharding by server is the crawler's natural cut — politeness is per
// server — and its weakness: a crawl of one server runs on one loop, as
// with one loop; parsing (the parse workers) is what spreads such a crawl
// over cores. Large crawlers shard the same way, over machines.
type Group struct {
	loops    *loop.Group
	crawlers []*Crawler
	cfg      Config
	work     atomic.Int64
	pages    atomic.Int64
}

// NewGroup prepares a crawl on the loops of g. MaxTasks and ParseWorkers
// are totals, divided between the loops (at least one each).
func NewGroup(g *loop.Group, cfg Config) (*Group, error) {
	cfg = cfg.withDefaults()
	n := g.Len()
	per := cfg
	per.MaxTasks = max(1, (cfg.MaxTasks+n-1)/n)
	if cfg.ParseWorkers > 0 {
		per.ParseWorkers = max(1, cfg.ParseWorkers/n)
	}
	gr := &Group{loops: g, cfg: cfg}
	for i := range n {
		c, err := New(g.Loop(i), per)
		if err != nil {
			return nil, err
		}
		c.shard = &shard{index: i, group: gr, outbox: make([][]link, n)}
		c.front.quiet = c.quiet
		gr.crawlers = append(gr.crawlers, c)
	}
	gr.work.Store(int64(n)) // every shard starts awake, and says when it is not
	return gr, nil
}

// Crawl runs every shard on its loop until the crawl is over, and returns
// the shards' errors joined.
func (g *Group) Crawl() error {
	return g.loops.Run(func(i int, l *loop.Loop) error {
		_, err := task.Run(l, func(y task.Yield) (int, error) { return 0, g.crawlers[i].Crawl(y) })
		return err
	})
}

// settle takes one unit of work off; the last one ends every shard.
func (g *Group) settle() {
	if g.work.Add(-1) != 0 {
		return
	}
	for _, c := range g.crawlers {
		c.loop.CallSoonThreadsafe(c.front.finishShard)
	}
}

// startedPage counts a page started on any loop against MaxPages.
func (g *Group) startedPage() (spent bool) {
	return g.cfg.MaxPages > 0 && g.pages.Add(1) >= int64(g.cfg.MaxPages)
}

// stopAll stops every shard's frontier: the page budget is spent.
func (g *Group) stopAll() {
	for _, c := range g.crawlers {
		c.loop.CallSoonThreadsafe(c.front.stop)
	}
}

// Interrupt is Crawler.Interrupt on every loop. Unlike the Crawler's, it
// may be called from any goroutine.
func (g *Group) Interrupt() {
	for _, c := range g.crawlers {
		c.loop.CallSoonThreadsafe(c.Interrupt)
	}
}

// Len is the number of loops, and Shard(i) the crawler on loop i: use it
// only on that loop (through CallSoonThreadsafe while the crawl runs).
func (g *Group) Len() int             { return len(g.crawlers) }
func (g *Group) Shard(i int) *Crawler { return g.crawlers[i] }

// The methods below merge the shards' results. Call them once Crawl has
// returned: while it runs, each shard's state belongs to its loop.

// Stats are the shards' counts, added up.
func (g *Group) Stats() Stats {
	var s Stats
	for _, c := range g.crawlers {
		s = s.Add(c.Stats())
	}
	return s
}

// Records are every shard's records, shard after shard.
func (g *Group) Records() []*Record {
	var all []*Record
	for _, c := range g.crawlers {
		all = append(all, c.records...)
	}
	return all
}

// HandedOver is how many links crossed from one loop to another.
func (g *Group) HandedOver() int {
	n := 0
	for _, c := range g.crawlers {
		n += c.shard.sent
	}
	return n
}

// Elapsed is how long the longest shard ran.
func (g *Group) Elapsed() time.Duration {
	var d time.Duration
	for _, c := range g.crawlers {
		d = max(d, c.Elapsed())
	}
	return d
}

// Report is Crawler.Report over every shard's records.
func (g *Group) Report(w io.Writer) { g.view().report(w) }

// FailedRoots is Crawler.FailedRoots over every shard's records: a root's
// redirects may lead to another loop's server.
func (g *Group) FailedRoots() []string { return g.view().failedRoots() }

func (g *Group) view() view {
	v := view{cfg: g.cfg, roots: g.crawlers[0].roots, stats: g.Stats(), elapsed: g.Elapsed()}
	for _, c := range g.crawlers {
		v.records = append(v.records, c.records...)
		v.disallowed = append(v.disallowed, c.disallowed...)
		v.todo += c.Todo()
	}
	return v
}

// DefaultLoops is what --loops defaults to: a loop per processor Go may
// use, at most 8 — past that, a crawl of a few servers has shards with
// nothing to do, and one of many is limited by the network, not the CPU.
func DefaultLoops() int { return min(runtime.GOMAXPROCS(0), 8) }
