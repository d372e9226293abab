package crawler

import (
	"errors"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"loopkit/loop"
	"loopkit/task"
)

// Group is one crawl run by several loops, a loop.Group: one Crawler per
// loop, each owning the servers whose names hash to it (shard.go). Each
// shard is the single-loop crawler — its frontier, gates, connections,
// robots.txt cache and seen set are its own, used by its loop alone, with
// no lock — and a link found on one loop for a server another owns
// crosses over with CallSoonThreadsafe, in a batch per turn.
//
// The crawl's limits are not divided between the loops: MaxTasks,
// MaxPages and the parse budget are one budget (budget.go) that every
// loop takes from, so they mean what they mean with one loop, exactly.
// A crawl of one server runs on one loop, which may use every worker;
// the parse workers, shared by the loops, spread its parsing over the
// cores. More loops pay when there are servers to spread.
//
// The crawl is over when no shard has work left and no batch of links is
// on its way: work counts both, and falls to zero only then.
//
// A Group's callbacks (OnRecord, OnDisallowed, OnAttempt, OnNotice) are
// called from every loop's goroutine, one at a time: the Group
// serializes them, so they need no lock of their own. A Group of one
// loop is the plain crawler.
type Group struct {
	loops    *loop.Group
	crawlers []*Crawler
	shards   []*shard // each loop's peers (shard.go); nil with one loop
	cfg      Config
	crawl    *crawl
	work     atomic.Int64
	running  atomic.Bool
}

// NewGroup prepares a crawl on the loops of g.
func NewGroup(g *loop.Group, cfg Config) (*Group, error) {
	loops := make([]*loop.Loop, g.Len())
	for i := range loops {
		loops[i] = g.Loop(i)
	}
	gr := &Group{loops: g}
	cr, err := assemble(loops, cfg, gr)
	if err != nil {
		return nil, err
	}
	gr.crawl, gr.cfg = cr, cr.crawlers[0].cfg
	return gr, nil
}

// Crawl runs every shard on its loop until the crawl is over, and returns
// the shards' errors joined. The parse workers run on loop 0's executor,
// and stop when every shard is done.
func (g *Group) Crawl() error {
	g.running.Store(true)
	defer g.running.Store(false)
	g.crawl.budget.parse.start(g.loops.Loop(0))
	err := g.loops.Run(func(i int, l *loop.Loop) error {
		_, err := task.Run(l, func(y task.Yield) (int, error) { return 0, g.crawlers[i].Crawl(y) })
		return err
	})
	g.crawl.budget.parse.closeJobs()
	err = oneOfEach(err)
	g.crawl.store.end(err == nil && g.complete())
	if cerr := g.crawl.store.close(); err == nil {
		err = cerr
	}
	return err
}

// oneOfEach is err, joined errors without repeats: a write that failed
// stops every loop, and each returns it.
func oneOfEach(err error) error {
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return err
	}
	var each []error
	for _, e := range joined.Unwrap() {
		if !slices.Contains(each, e) {
			each = append(each, e)
		}
	}
	return errors.Join(each...)
}

// Close closes the crawl's output and state directory. Crawl does it; a
// Group that never crawled must do it, to let its state directory go.
func (g *Group) Close() error { return g.crawl.store.close() }

// settle takes one unit of work off; the last one ends every shard.
func (g *Group) settle() {
	if g.work.Add(-1) != 0 {
		return
	}
	for _, c := range g.crawlers {
		c.loop.CallSoonThreadsafe(c.end)
	}
}

// Interrupt is Crawler.Interrupt on every loop: the first stops new work,
// a second cancels what is in flight. Unlike the Crawler's, it may be
// called from any goroutine (a signal handler's).
func (g *Group) Interrupt() {
	for _, c := range g.crawlers {
		c.loop.CallSoonThreadsafe(c.Interrupt)
	}
}

// Len is the number of loops, and Shard(i) the crawler on loop i: use it
// only on that loop (through CallSoonThreadsafe while the crawl runs).
func (g *Group) Len() int             { return len(g.crawlers) }
func (g *Group) Shard(i int) *Crawler { return g.crawlers[i] }

// Resumed says the crawl went on from a stopped one (Config.State).
func (g *Group) Resumed() bool { return g.crawl.store.resumed }

// Finished says the crawl it went on from had ended, with nothing left
// to do: its journal said so (Config.State).
func (g *Group) Finished() bool { return g.crawl.store.finished }

// complete says the crawl ran to its end: not interrupted, nothing left
// to do on any loop.
func (g *Group) complete() bool {
	for _, c := range g.crawlers {
		if !c.complete() {
			return false
		}
	}
	return true
}

// Loops is the loop.Group the crawl runs on.
func (g *Group) Loops() *loop.Group { return g.loops }

// errNotRunning is what LiveStats says of a Group whose loops do not run.
var errNotRunning = errors.New("crawler: the group is not running")

// LiveStats are the shards' counts added up while the crawl runs, each
// read on its own loop. It waits for every loop to answer: call it from
// outside the loops (a progress line's goroutine), never from one of them.
func (g *Group) LiveStats() (Stats, error) {
	if !g.running.Load() {
		return Stats{}, errNotRunning
	}
	counts := make(chan Stats, len(g.crawlers))
	asked := 0
	for _, c := range g.crawlers {
		if c.loop.CallSoonThreadsafe(func() { counts <- c.Stats() }) == nil {
			asked++
		}
	}
	var s Stats
	for range asked {
		select {
		case one := <-counts:
			s = s.Add(one)
		case <-time.After(time.Second): // a loop that ended meanwhile never answers
			return s, errNotRunning
		}
	}
	return s, nil
}

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
	for _, s := range g.shards {
		n += s.sent
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
	v := view{cfg: g.cfg, roots: g.crawlers[0].rootURLs, stats: g.Stats(), elapsed: g.Elapsed(),
		listed: g.crawl.listed.complete(), watch: g.crawl.roots}
	for _, c := range g.crawlers {
		v.records = append(v.records, c.records...)
		v.disallowed = append(v.disallowed, c.disallowed...)
		v.todo += c.Todo()
	}
	return v
}

// sink serializes the callbacks of a Group's loops. A crawler on its own
// has none (a nil sink calls straight through): its callbacks all run on
// its loop's goroutine.
type sink struct{ mu sync.Mutex }

func (s *sink) call(fn func()) {
	if s == nil {
		fn()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fn()
}

// DefaultLoops is what --loops defaults to. A second loop pays only if
// there is a processor for it to run on: with two, the crawl shares them
// with its parse workers, the collector and, as often as not, the site
// it crawls, and a second loop adds the links it hands across (a few µs
// each) to a machine with no room. Measured on two cores (cmd/bench's
// S8, docs/bench-results/loops), two loops against one took 1.38× the
// CPU at 20 hosts and 1.50× at 200, and 1.16× and 1.70× the wall time.
// So: one loop with two processors or fewer; else a loop per processor,
// at most 8 — past that, a crawl of a few servers has shards with
// nothing to do, and one of many is limited by the network, not the CPU.
// (Not measured past two processors here: S8 measures any machine.)
func DefaultLoops() int {
	n := runtime.GOMAXPROCS(0)
	if n <= 2 {
		return 1
	}
	return min(n, 8)
}
