package crawler

import (
	"slices"
	"sync"
	"sync/atomic"

	"loopkit/crawler/frontier"
)

// budget is what every loop of one crawl takes from: worker slots
// (MaxTasks), pages (MaxPages), and room for bodies awaiting their parse
// (ParseBudget, kept by the parse pool). The 500-lines crawler has one
// loop and max_tasks workers, and max_tasks is how many URLs it handles
// at once. A crawl on several loops keeps that meaning exactly: the
// limits are the crawl's, and each loop takes from them as it needs, so a
// crawl of one host may use every worker on the loop that owns it, and a
// crawl of many shares them out as the hosts' work comes.
//
// A slot is taken when the frontier hands a job out (the frontier's
// Admit), and given back when the job is over, so MaxTasks bounds the
// jobs in flight, fetch and parse, over every loop. Each loop runs
// MaxTasks worker tasks: parked ones cost a future each, and the budget,
// not their number, bounds the work.
//
// The counters are atomics, because loops on other goroutines take from
// them; nothing else is shared. A loop told no registers as waiting and
// is woken, with CallSoonThreadsafe, by whoever frees what it lacked —
// the same hand-off as the links that cross between loops (shard.go).
type budget struct {
	slots    atomic.Int64 // worker slots free
	pages    atomic.Int64 // pages started
	maxPages int64        // 0: no limit
	parse    *parsePool   // keeps the bytes awaiting parse

	queued atomic.Int64 // URLs queued in memory, over every loop, as last told (QueueMemory, spill.go)
	hungry atomic.Int32 // loops short of work: links found for them are checked on disk at once (seen.go)

	waitingN atomic.Int32 // len(waiting), read without the lock on every release
	mu       sync.Mutex
	waiting  []*Crawler // loops told no, to wake when there is room
	crawlers []*Crawler // every loop's, to stop them all
	stopOnce sync.Once
	halted   atomic.Bool // a write failed: no job is handed out any more
}

func newBudget(cfg Config, parse *parsePool) *budget {
	b := &budget{maxPages: int64(cfg.MaxPages), parse: parse}
	b.slots.Store(int64(cfg.MaxTasks))
	parse.onRoom = b.wake
	return b
}

// admit is the frontier's Admit: whether the budget lets j go now. A job
// counts against MaxPages if it is a page's first attempt: not a retry,
// and not robots.txt.
func (c *Crawler) admit(j frontier.Job) bool {
	if c.budget.halted.Load() {
		return false // stopAll has been called: the frontiers stop
	}
	ok := c.budget.takeSlot(c)
	if ok && !j.Gate && j.Item.Tries == 0 {
		var last bool
		if ok, last = c.budget.takePage(c); last {
			c.budget.stopAll(c) // the page budget is spent: nothing more starts, on any loop
		}
	}
	c.held = c.held || !ok
	return ok
}

// takeSlot asks for a worker slot. A loop told no is woken (its dispatch
// called) when a slot or parse room frees up.
func (b *budget) takeSlot(c *Crawler) bool {
	if !b.tryTake() {
		b.mu.Lock()
		listed := slices.Contains(b.waiting, c) // a handful of loops at most
		if !listed {                            // once: a loop told no twice is woken once
			b.waiting = append(b.waiting, c)
			b.waitingN.Add(1)
		}
		// Look again after saying so: a slot freed between the first look
		// and now was freed by someone who may not have seen us waiting.
		again := b.tryTake()
		if again && !listed {
			b.waiting = b.waiting[:len(b.waiting)-1]
			b.waitingN.Add(-1)
		}
		b.mu.Unlock()
		return again
	}
	return true
}

// takePage asks for one of MaxPages, with a slot c has taken. ok says it
// was given; if not, the slot goes back. last says it was the budget's
// last page: the crawl stops after it.
func (b *budget) takePage(c *Crawler) (ok, last bool) {
	if b.maxPages == 0 {
		return true, false
	}
	for {
		n := b.pages.Load()
		if n >= b.maxPages {
			b.release(c) // spent already: the slot goes back
			return false, true
		}
		if b.pages.CompareAndSwap(n, n+1) {
			return true, n+1 == b.maxPages
		}
	}
}

// tryTake takes a slot if there is one and the parse backlog has room.
func (b *budget) tryTake() bool {
	if b.parse.saturated() {
		return false
	}
	for {
		n := b.slots.Load()
		if n <= 0 {
			return false
		}
		if b.slots.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// release gives a slot back, and wakes the loops that wait for one. from
// is the loop giving it.
func (b *budget) release(from *Crawler) {
	b.slots.Add(1)
	if b.waitingN.Load() > 0 {
		b.wake(from)
	}
}

// wake calls dispatch on every loop that was told no: on from's own loop
// directly, on the others through CallSoonThreadsafe. Each looks again,
// and says so again if there is still no room.
func (b *budget) wake(from *Crawler) {
	b.mu.Lock()
	waiting := b.waiting
	b.waiting = nil
	b.waitingN.Store(0)
	b.mu.Unlock()
	for _, c := range waiting {
		if c == from {
			c.loop.CallSoon(c.dispatch)
		} else {
			_ = c.loop.CallSoonThreadsafe(c.dispatch) // a closed loop has nothing waiting
		}
	}
}

// stopAll stops every loop's frontier: the page budget is spent.
func (b *budget) stopAll(from *Crawler) {
	b.stopOnce.Do(func() {
		for _, c := range b.crawlers {
			if c == from {
				c.loop.CallSoon(c.stop)
			} else {
				_ = c.loop.CallSoonThreadsafe(c.stop)
			}
		}
	})
}

// halt refuses every job from now on, on every loop, and stops them all:
// a write failed, and what a job would do could not be kept. Unlike
// stopAll alone, it takes effect before the loops' next turns.
func (b *budget) halt(from *Crawler) {
	b.halted.Store(true)
	b.stopAll(from)
}

// queuedInMemory is how many URLs wait in memory over every loop: c's
// count now, the others' as they last told it. QueueMemory is the
// crawl's, like the other limits: a crawl of one host may use all of it.
func (b *budget) queuedInMemory(c *Crawler) int64 {
	now := int64(c.front.Queued())
	total := b.queued.Add(now - c.overflow.told)
	c.overflow.told = now
	return total
}
