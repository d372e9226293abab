package crawler

import (
	"context"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/journal"
	"loopkit/crawler/urlnorm"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// The chapter's seen_urls is a set in memory, and it is the one cost of
// a crawl that grows with every page: a hash of each URL, 12 bytes in a
// table, 120 MB at ten million pages, 12 GB at a billion. IRLbot crawled
// 6.3 billion pages on one server by keeping that set on disk, sorted,
// and checking new URLs against it in batches, a merge of two sorted
// lists read front to back — its DRUM. seenSet does the same, for one
// loop:
//
//   - memory holds the hashes of the URLs seen since the last ones went
//     to disk, up to Config.SeenMemory (a Group's loops share it out).
//     While the disk holds none, memory holds every URL seen, and the set
//     answers at once, as the chapter's does;
//   - past that, they are sorted and merged into this loop's file on disk
//     (journal.SeenDisk), by the executor;
//   - from then on, a link memory does not know may be on disk: it waits
//     with others, and a batch of them is checked in one pass over the
//     files. Those the files lack are new, and go where a new link goes
//     (route, addurl.go), in the order they were found;
//   - a link the disk said was seen is kept in a small cache, so that a
//     page linked from every page — a home page — asks the disk once in a
//     while, not a million times; and a page's link to itself ("#reviews")
//     never asks: the pages on the wire are known (sent, recorded).
//
// It is exact: a link is never taken for seen unless its hash was seen
// (a 64-bit keyed hash, as urlnorm.Seen's: two URLs sharing one is the
// only false "seen", about n²/2⁶⁵ for n URLs).
//
// A link that waits changes three things, which is why this lives behind
// the seam rather than in add. Its journal entry (the extensions' queued)
// is written when it is found, before its page's record, though it may
// turn out to be a repeat: a page is done only once the links it led to
// are written, and the answer may come after. A replay, and a fold,
// already take a URL queued twice once. A page's num_new_urls counts the
// links memory could call new at once, not those that waited. And the
// crawl is not over while links wait (waitsOnDisk).
//
// Links wait until there are seenBatchMax of them, or until the crawl is
// short of work: this loop's queue is low, or another loop's is (a link
// found here for another loop's server is checked here first, then there).
//
// The set is one of the crawl's extensions (extension.go), only to be
// told when the crawl is over: it waits for the job the executor has,
// and lets its files go.
type seenSet struct {
	c     *Crawler
	store *store
	key   urlnorm.SeenKey
	limit int           // hashes memory holds before they go to disk; 0: no limit
	under *urlnorm.Seen // a stopped crawl's set, kept in memory when it is small (standOn); nil: none

	mem    urlnorm.Seen        // URLs seen that the disk does not hold: every one, until it holds some
	moving *urlnorm.Seen       // memory's hashes on their way to disk: seen meanwhile
	disk   *journal.SeenDisk   // nil until memory first overflows, or a restart stands on disk
	onDisk bool                // the disk holds URLs memory does not: memory's "not seen" is a "perhaps"
	hot    []uint64            // hashes the disk said were seen, by their low bits: a cache
	wire   map[uint64]struct{} // the pages on the wire (sent, not yet recorded): seen, surely

	asked   urlnorm.Seen // links waiting for the disk's answer, the first time each was found
	waiting []seenLink   // them, in the order found
	batch   *seenBatch   // the links the executor is checking: seen meanwhile
	job     *future.Future[[]uint64]
	soon    bool          // work runs at the end of this turn
	hungry  bool          // this loop is short of work, and said so (budget.hungry)
	timer   *loop.Timer   // brings work back when a pass is due (checkDue)
	lastJob time.Duration // loop time the last job ended
	jobCost time.Duration // how long it took
	closed  bool

	passes, asks, repeats int // disk passes, links asked about, and found seen there
	onDiskN               int // hashes the files hold, as of the last job (the executor's job writes disk's count)
}

// beforeSeenJob, if set, is called on the executor before each job: a
// test's slow disk.
var beforeSeenJob func()

// A seenLink is a link waiting for the disk's answer.
type seenLink struct {
	it frontier.Item
	h  uint64
}

// A seenBatch is the links one pass checks.
type seenBatch struct {
	asked urlnorm.Seen
	links []seenLink
}

const (
	// seenBatchMax is how many links wait before they are checked anyway:
	// each pass reads every file, so fewer, bigger batches cost less disk,
	// and more memory while they wait (about 130 bytes a link).
	seenBatchMax = 32 << 10
	// hotSlots is the cache's size: 512 KB a loop.
	hotSlots = 1 << 16
)

// init makes s the seen set of c, with a random key until a state
// directory gives the crawl's (standOn), and limit hashes in memory.
func (s *seenSet) init(c *Crawler, st *store, limit int) {
	*s = seenSet{c: c, store: st, key: urlnorm.NewSeenKey(), limit: max(limit, 0), wire: map[uint64]struct{}{}}
	s.mem = urlnorm.NewSeen(s.key, nil)
	s.asked = urlnorm.NewSeen(s.key, nil)
}

// seenShare is one loop's share of Config.SeenMemory over loops: at
// least one hash, or 0 for no limit.
func seenShare(total, loops int) int {
	if total <= 0 {
		return 0
	}
	return max(total/loops, 1)
}

// setKey makes s hash with key, the crawl's, kept in its state directory:
// the hashes its files hold must mean the same in the next process.
// Called before the set holds anything.
func (s *seenSet) setKey(key urlnorm.SeenKey) {
	s.key = key
	s.mem = urlnorm.NewSeen(key, nil)
	s.asked = urlnorm.NewSeen(key, nil)
}

// standOn makes every loop's seen set stand on base, what a stopped crawl
// had seen, hashed with key: kept in memory, one set the loops share, if
// it holds no more than Config.SeenMemory URLs; otherwise on disk, where
// every loop's files stand on the snapshot's seen file and on a run of
// the hashes its journals added (written to the spill directory).
func standOn(crawlers []*Crawler, key urlnorm.SeenKey, base *journal.SeenBase) error {
	for _, c := range crawlers {
		c.seen.setKey(key)
	}
	if limit := crawlers[0].cfg.SeenMemory; limit < 0 || base.Len() <= limit {
		under := urlnorm.NewSeen(key, nil)
		under.Reserve(base.Len())
		if err := base.Each(func(h uint64) { under.AddHash(h) }); err != nil {
			return err
		}
		for _, c := range crawlers {
			c.seen.under = &under
			c.seen.mem = urlnorm.NewSeen(key, &under)
		}
		return nil
	}
	dir, err := crawlers[0].overflow.spillDir()
	if err != nil {
		return err
	}
	var paths []string
	if base.File != "" {
		paths = append(paths, base.File)
	}
	if len(base.Added) > 0 {
		since := filepath.Join(dir, "seen-since")
		if err := journal.WriteSeenRun(since, base.Added); err != nil {
			return err
		}
		paths = append(paths, since)
	}
	for _, c := range crawlers {
		if c.seen.disk, err = journal.OpenSeenDisk(dir, seenPrefix(c), paths...); err != nil {
			return err
		}
		c.seen.onDisk, c.seen.hot = true, make([]uint64, hotSlots)
		c.seen.onDiskN = int(c.seen.disk.Len())
	}
	return nil
}

// add says whether it, a link found on this loop, is new: added, to be
// routed now. One seen before is not; neither is one memory cannot tell
// of: that one waits for the disk, and is routed then if new. The
// journal is told of it now, as it would be of a new link (extension.go).
func (s *seenSet) add(it frontier.Item) bool { return s.take(it, true) }

// addHandedOver is add for a link another loop found and handed over
// (shard.go): it told the journal already.
func (s *seenSet) addHandedOver(it frontier.Item) bool { return s.take(it, false) }

func (s *seenSet) take(it frontier.Item, found bool) bool {
	h := s.key.Hash(it.URL)
	if s.knows(h) {
		return false
	}
	if !s.onDisk {
		s.remember(h)
		return true
	}
	s.asked.AddHash(h)
	s.waiting = append(s.waiting, seenLink{it: it, h: h})
	s.asks++
	if found {
		s.c.ext.queued(it)
	}
	s.workSoon()
	return false
}

// knows says whether memory knows h as seen: in its table, on its way
// to disk, in the cache, or waiting for the disk's answer.
func (s *seenSet) knows(h uint64) bool {
	switch {
	case s.mem.HasHash(h), s.asked.HasHash(h):
		return true
	case s.moving != nil && s.moving.HasHash(h):
		return true
	case s.hot != nil && s.hot[h%hotSlots] == h:
		return true
	case len(s.wire) > 0:
		if _, ok := s.wire[h]; ok {
			return true
		}
	}
	return s.batch != nil && s.batch.asked.HasHash(h)
}

// remember adds h, a new URL's, to memory.
func (s *seenSet) remember(h uint64) {
	s.mem.AddHash(h)
	if s.limit > 0 && s.mem.Len() >= s.limit {
		s.workSoon()
	}
}

// workSoon runs work at the end of this turn, once however many links
// the turn found.
func (s *seenSet) workSoon() {
	if !s.soon {
		s.soon = true
		s.c.loop.CallSoon(s.work)
	}
}

// work hands the executor its next job, if none runs and one is due:
// memory's hashes, once it holds limit of them, to go to disk; the links
// waiting, once there are seenBatchMax of them or the crawl is short of
// work, to be checked. A crawl that stopped checks nothing more: the
// links waiting are to do, in its journal.
func (s *seenSet) work() {
	s.soon = false
	if s.closed {
		return
	}
	s.noteHunger()
	if s.job != nil {
		return
	}
	var flush []uint64
	if s.limit > 0 && s.mem.Len() >= s.limit {
		flush = s.mem.AppendHashes(make([]uint64, 0, s.mem.Len()))
		moving := s.mem
		s.moving = &moving
		s.mem = urlnorm.NewSeen(s.key, s.under)
	}
	var check *seenBatch
	if len(s.waiting) > 0 && !s.c.front.Stopped() && s.checkDue() {
		check = &seenBatch{asked: s.asked, links: s.waiting}
		s.asked, s.waiting = urlnorm.NewSeen(s.key, nil), nil
		s.batch = check
	}
	if flush == nil && check == nil {
		return
	}
	if err := s.openDisk(); err != nil {
		s.store.stopCrawl(s.c, seenError{err})
		return
	}
	d := s.disk
	var asked []uint64
	if check != nil {
		asked = make([]uint64, len(check.links))
		for i, l := range check.links {
			asked[i] = l.h
		}
		s.passes++
	}
	started := s.c.loop.Time()
	f := loop.RunInExecutor(s.c.loop, func(context.Context) ([]uint64, error) {
		if beforeSeenJob != nil {
			beforeSeenJob()
		}
		if flush != nil {
			slices.Sort(flush)
			if err := d.Add(flush); err != nil {
				return nil, err
			}
		}
		if asked == nil {
			return nil, nil
		}
		slices.Sort(asked) // a batch has no repeats: asked holds each link once
		return d.Absent(asked)
	})
	s.job = f
	f.OnDone(func() {
		s.job = nil
		s.lastJob = s.c.loop.Time()
		s.jobCost = s.lastJob - started
		s.onDiskN = int(d.Len()) // the job is over: d is the loop's to read again
		if s.closed {
			return
		}
		fresh, err := f.Result()
		if err != nil {
			if !s.c.Stopping() { // a crawl that stopped may have closed the files under the job
				s.store.stopCrawl(s.c, seenError{err})
			}
			return
		}
		if flush != nil {
			s.moving, s.onDisk = nil, true
			if s.hot == nil {
				s.hot = make([]uint64, hotSlots)
			}
		}
		if check != nil {
			s.answer(check, fresh)
		}
		s.work()
		s.c.dispatch()
	})
}

// checkDue says whether the links waiting are to be checked now. A
// full batch is. Fewer are when the crawl is short of work — but each
// pass reads every file, so no sooner after the last job than four times
// what it took: a crawl short of work for long (a trickle of links to a
// few slow hosts) spends at most a fifth of a core on passes. A timer
// brings work back when the pass is due.
func (s *seenSet) checkDue() bool {
	if len(s.waiting) >= seenBatchMax {
		return true
	}
	if !s.hungry && s.c.budget.hungry.Load() == 0 {
		return false
	}
	at := s.lastJob + 4*s.jobCost
	if at <= s.c.loop.Time() {
		return true
	}
	if s.timer == nil {
		s.timer = s.c.loop.CallAt(at, func() {
			s.timer = nil
			s.work()
		})
	}
	return false
}

// answer routes the links of a batch the disk did not hold, fresh, in
// the order they were found, and caches the others.
func (s *seenSet) answer(b *seenBatch, fresh []uint64) {
	for _, l := range b.links {
		if _, ok := slices.BinarySearch(fresh, l.h); !ok {
			s.hot[l.h%hotSlots] = l.h
			s.repeats++
			continue
		}
		s.remember(l.h)
		if u, err := url.Parse(l.it.URL); err == nil { // normalized when found: it parses
			s.c.route(u, l.it, false) // told when found (take)
		}
	}
	s.batch = nil
}

// openDisk opens this loop's files, in the spill directory, the first
// time memory overflows.
func (s *seenSet) openDisk() error {
	if s.disk != nil {
		return nil
	}
	dir, err := s.c.overflow.spillDir()
	if err != nil {
		return err
	}
	s.disk, err = journal.OpenSeenDisk(dir, seenPrefix(s.c))
	return err
}

// seenPrefix names a loop's own seen files.
func seenPrefix(c *Crawler) string { return "seen-" + strconv.Itoa(c.index) }

// noteHunger tells the other loops, through the budget, whether this
// one is short of work: fewer URLs queued (in memory and on disk) than
// twice its workers. Links found elsewhere for its servers wait in their
// finders' sets; a finder that hears of the hunger checks them at once
// rather than when its batch fills.
func (s *seenSet) noteHunger() {
	short := !s.c.front.Stopped() && s.c.front.Queued()+s.c.overflow.left() < 2*s.c.cfg.MaxTasks
	if short == s.hungry {
		return
	}
	s.hungry = short
	if !short {
		s.c.budget.hungry.Add(-1)
		return
	}
	s.c.budget.hungry.Add(1)
	for _, other := range s.c.budget.crawlers {
		if other != s.c {
			other.loop.CallSoonThreadsafe(other.seen.workSoon)
		}
	}
}

// busy says whether links wait for the disk's answer.
func (s *seenSet) busy() bool { return len(s.waiting) > 0 || s.batch != nil }

// left is how many links wait for the disk's answer: to do, perhaps.
func (s *seenSet) left() int {
	n := len(s.waiting)
	if s.batch != nil {
		n += len(s.batch.links)
	}
	return n
}

// stats says what it did on disk.
func (s *seenSet) stats() SeenStats {
	return SeenStats{Asked: s.asks, Repeats: s.repeats, Passes: s.passes, Waiting: s.left(), OnDisk: s.onDiskN}
}

// As an extension (extension.go), the set hears of the pages on the
// wire, between their request (sent) and their record: a page's links to
// itself, found meanwhile, are known without asking the disk. When the
// crawl is over, finish waits for the job with the executor, then lets
// the files go, and removes this loop's own; abandon lets them go at
// once.

func (s *seenSet) sent(url string) {
	if s.limit > 0 { // the disk may come: from before, so that no page it takes is missed
		s.wire[s.key.Hash(url)] = struct{}{}
	}
}

func (s *seenSet) recorded(r *Record) {
	if len(s.wire) > 0 {
		delete(s.wire, s.key.Hash(r.URL))
	}
}

func (s *seenSet) started()                               {}
func (s *seenSet) queued(frontier.Item)                   {}
func (s *seenSet) dropped(string)                         {}
func (s *seenSet) robotsLearnt(string, []byte, time.Time) {}
func (s *seenSet) serverHeld(string, time.Time)           {}
func (s *seenSet) jobEnds(task.Yield)                     {}

func (s *seenSet) finish(y task.Yield) error {
	s.closed = true // the job's answer, if it comes, changes nothing now
	if s.job != nil {
		task.Await(y, s.job) // its error, if any, stopped the crawl already
	}
	return s.abandon()
}

func (s *seenSet) abandon() error {
	s.closed = true
	if s.timer != nil {
		s.timer.Cancel()
	}
	if s.disk != nil {
		s.disk.Close()
	}
	return nil
}

// seenError is a failure of the seen set's files.
type seenError struct{ err error }

func (e seenError) Error() string { return "the seen set on disk: " + plainly(e.err).Error() }
func (e seenError) Unwrap() error { return e.err }

// The disk's part of the to-do list, for the chapter's files: URLs that
// wait where the frontier cannot see them, spilled (spill.go) or asked
// about (above).

// refill is called when a host's queue may have run low (a job handed
// out, a host given up): its URLs on disk come back, and links waiting
// for the disk are asked about if the crawl runs short.
func (c *Crawler) refill(h *frontier.Host) {
	c.overflow.refill(h)
	c.overflow.later.read(c) // and the crawl's queue, if it runs low: a stopped crawl's backlog
	if c.seen.busy() {
		c.seen.workSoon()
	}
}

// waitsOnDisk says whether this loop has work the frontier cannot see:
// spilled URLs, or links waiting for the seen set's answer. Its crawl is
// not over while it does.
func (c *Crawler) waitsOnDisk() bool {
	if c.seen.busy() {
		c.seen.workSoon() // the crawl may be waiting on them: ask now if it is short
	}
	c.overflow.later.read(c)
	return c.overflow.busy() || c.seen.busy()
}

// onDisk is how many URLs wait on disk (spilled), and what the seen set
// did there: how many links wait for its answer among it.
func (c *Crawler) onDisk() (spilled int, seen SeenStats) { return c.overflow.left(), c.seen.stats() }
