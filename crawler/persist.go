package crawler

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"sync"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/journal"
	"loopkit/crawler/robots"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/netpoll"
	"loopkit/task"
)

// store is where a crawl writes: its JSON Lines (Config.Output) and its
// state directory (Config.State, package crawler/journal). A Group's
// loops share one. Its files are written only from executor goroutines:
// a disk file is not pollable, and a loop that wrote one would stall
// every connection for as long as the disk took.
type store struct {
	resumed bool             // the state directory held this crawl before
	journal *journal.Journal // nil without Config.State
	output  *journal.Output  // nil without Config.Output
	stop    chan struct{}    // ends the syncer
	synced  sync.WaitGroup
	mu      sync.Mutex
	err     error          // the first write that failed: the crawl stops on it
	spill   *journal.Spill // long host queues' overflow, opened on first need; every loop's (spill.go)

	beforeWrite func() // a test's hook: called on the executor before each batch
}

// openStore opens the crawl's output and state directory (replay, which
// must follow, starts the fsync every second). It runs before
// the loops do. The crawlers it serves must have it before replay brings
// a stopped crawl back: putting a URL back may spill it, through the store.
func openStore(cfg Config, notice func(string)) (*store, error) {
	s := &store{stop: make(chan struct{})}
	if cfg.State != "" {
		j, err := journal.Open(cfg.State, SettingsOf(cfg), cfg.StateReuse)
		if err != nil {
			return nil, fmt.Errorf("--state: %w", err)
		}
		s.journal = j
	}
	if cfg.Output != "" {
		var err error
		switch {
		case s.journal != nil:
			s.output, err = journal.Resume(cfg.Output, nil) // its whole lines are the pages done: replay reads them
		case cfg.Shared != nil:
			// A fleet's process run again on its crawl: its lines are
			// pages the fleet settled and will not fetch again, so the
			// file is appended to (a torn last line cut), never truncated.
			s.output, err = journal.Resume(cfg.Output, nil)
		default:
			s.output, err = journal.Create(cfg.Output)
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("-o: %w", err)
		}
		for _, n := range s.output.Notices() {
			notice(n)
		}
	}
	return s, nil
}

// startSyncing starts the fsync every second, once replay is over: the
// replay may rewrite the journal and reopen it, and a sync meanwhile
// would read the file being replaced (a data race, and an fsync of a
// closed file on a resume whose replay takes more than a second).
func (s *store) startSyncing() {
	if s.journal != nil || s.output != nil {
		s.synced.Add(1)
		go s.syncEverySecond()
	}
}

// replay brings back what a stopped crawl left (resume): apply makes the
// visitor that puts each URL on its crawler. With -o, the pages done are
// the output's whole lines, read again from the file rather than held in
// memory (a million URLs would be 100 MB of strings).
func (s *store) replay(cfg Config, apply func(journal.Visitor) journal.Visitor, notice func(string)) error {
	if s.journal == nil {
		s.startSyncing()
		return nil
	}
	var fromOutput func(func(string)) error
	if s.output != nil {
		fromOutput = func(yield func(string)) error { return journal.ReadURLs(cfg.Output, yield) }
	}
	sum, err := s.journal.Replay(time.Now(), apply(journal.Visitor{}), fromOutput)
	for _, n := range s.journal.Notices() {
		notice(n)
	}
	if err != nil {
		s.close()
		return fmt.Errorf("--state: %w", err)
	}
	if s.journal.Resumed() {
		s.resumed = true
		notice(fmt.Sprintf("resuming the crawl in %s: %d URLs done, %d to do", cfg.State, sum.Done, sum.ToDo))
	}
	s.startSyncing()
	return nil
}

// SettingsOf is what makes two runs, or two processes, one crawl: its
// roots, scope, filters and -o.
func SettingsOf(cfg Config) journal.Settings {
	s := journal.Settings{Roots: cfg.Roots, Scope: "strict", MaxDepth: cfg.MaxDepth,
		MaxRedirect: cfg.MaxRedirect, Robots: !cfg.NoRobots}
	if cfg.Lenient {
		s.Scope = "lenient"
	}
	if cfg.Exclude != nil {
		s.Exclude = cfg.Exclude.String()
	}
	if cfg.Output != "" {
		s.Output, _ = filepath.Abs(cfg.Output)
	}
	return s
}

// syncEverySecond is the durability rule: what is written reaches the
// disk within a second, so a power cut loses at most the last second.
func (s *store) syncEverySecond() {
	defer s.synced.Done()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			s.sync()
		}
	}
}

func (s *store) sync() {
	if s.journal != nil {
		s.fail(s.journal.Sync())
	}
	if s.output != nil {
		s.fail(s.output.Sync())
	}
}

// write writes a batch: the journal's entries first, then the records'
// lines. In that order, a stop between the two leaves links queued whose
// page is not done yet — fetched again — never a page done whose links
// were lost.
func (s *store) write(entries, lines []byte) error {
	if s.beforeWrite != nil {
		s.beforeWrite()
	}
	if len(entries) > 0 {
		if err := s.journal.Write(entries); err != nil {
			return s.fail(fmt.Errorf("--state: writing the journal: %w", plainly(err)))
		}
	}
	if len(lines) > 0 {
		if err := s.output.Write(lines); err != nil {
			return s.fail(fmt.Errorf("-o: %w", plainly(err)))
		}
	}
	return nil
}

// plainly says a full disk in plain words.
func plainly(err error) error {
	if netpoll.IsNoSpace(err) {
		return fmt.Errorf("no room to write (%w): the crawl stops; make room and run the same command again to go on", err)
	}
	return err
}

func (s *store) fail(err error) error {
	if err == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
	return err
}

// failed is the first write that failed, if one did.
func (s *store) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// openSpill opens the spill directory once, for every loop of the crawl:
// opening it empties it, so a second loop must not open it again.
func (s *store) openSpill(dir string) (*journal.Spill, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spill == nil {
		sp, err := journal.OpenSpill(dir)
		if err != nil {
			return nil, err
		}
		s.spill = sp
	}
	return s.spill, nil
}

// close syncs and closes what is open.
func (s *store) close() error {
	select {
	case <-s.stop:
		return s.failed()
	default:
		close(s.stop)
	}
	s.synced.Wait()
	if s.journal != nil {
		s.fail(s.journal.Close())
	}
	if s.output != nil {
		s.fail(s.output.Close())
	}
	if s.spill != nil {
		s.spill.Close()
	}
	return s.failed()
}

// batch is what one loop has to write: the entries and lines made since
// its last hand-over to the executor. One batch is with the executor at a
// time; what is made meanwhile waits for the next, so batches grow when
// the disk is slow instead of piling up goroutines.
type batch struct {
	entries, lines []byte
	written        *future.Future[struct{}] // completes when this batch is on disk; made when someone waits
	writing        bool                     // a batch is with the executor
	scheduled      bool                     // flush runs at the end of this turn
}

// journaling says whether the crawl keeps a journal.
func (c *Crawler) journaling() bool { return c.store != nil && c.store.journal != nil }

// queued notes, for the journal, that u was found and queued.
func (c *Crawler) queued(u string, depth, redirects int32) {
	if c.journaling() {
		c.batch.entries = journal.AppendQueued(c.batch.entries, u, depth, redirects)
		c.scheduleWrite()
	}
}

// written notes a record: its line for -o, and without -o, for the
// journal, that its URL is done.
func (c *Crawler) written(r *Record) {
	if c.store == nil {
		return
	}
	switch {
	case c.store.output != nil:
		b, err := json.Marshal(r)
		if err != nil { // a Record always marshals; say so if it ever does not
			c.notice("crawler: a record could not be written: " + err.Error())
			return
		}
		c.batch.lines = append(append(c.batch.lines, b...), '\n')
	case c.journaling():
		c.batch.entries = journal.AppendDone(c.batch.entries, r.URL)
	default:
		return
	}
	c.scheduleWrite()
}

// keptRobots notes h's robots.txt for the journal and the fleet, so a
// resumed crawl, or the next process on the host, does not fetch it again
// before it expires.
func (c *Crawler) keptRobots(h *hostPolicy, body []byte) {
	until := time.Now().Add(robotsTTL)
	if c.journaling() {
		c.batch.entries = journal.AppendRobots(c.batch.entries, h.host.Origin(), until, body)
		c.scheduleWrite()
	}
	if c.cfg.Shared != nil {
		c.cfg.Shared.Robots(h.host.Origin(), body, until)
	}
}

// keptHold notes a Retry-After hold on j's server for the journal and the
// fleet.
func (c *Crawler) keptHold(j *frontier.Job, wait time.Duration) {
	u, err := url.Parse(j.Item.URL)
	if err != nil {
		return
	}
	until := time.Now().Add(wait)
	if c.journaling() {
		c.batch.entries = journal.AppendHold(c.batch.entries, authority(u), until)
		c.scheduleWrite()
	}
	if c.cfg.Shared != nil {
		c.cfg.Shared.Hold(authority(u), until)
	}
}

func (c *Crawler) scheduleWrite() {
	if !c.batch.scheduled {
		c.batch.scheduled = true
		c.loop.CallSoon(c.writeBatch)
	}
}

// writeBatch hands the batch to the executor, unless one is already there: then
// it goes when that one is written.
func (c *Crawler) writeBatch() {
	b := &c.batch
	b.scheduled = false
	if b.writing || len(b.entries) == 0 && len(b.lines) == 0 {
		if !b.writing && b.written != nil { // waiters, and nothing to write: done
			b.written.SetResult(struct{}{})
			b.written = nil
		}
		return
	}
	entries, lines, written := b.entries, b.lines, b.written
	b.entries, b.lines, b.written = nil, nil, nil
	b.writing = true
	s := c.store
	f := loop.RunInExecutor(c.loop, func(context.Context) (struct{}, error) { return struct{}{}, s.write(entries, lines) })
	f.OnDone(func() {
		b.writing = false
		err := f.Err()
		if written != nil {
			if err != nil {
				written.SetError(err)
			} else {
				written.SetResult(struct{}{})
			}
		}
		if err != nil {
			c.storeFailed(err)
		}
		if len(b.entries) > 0 || len(b.lines) > 0 || b.written != nil {
			c.scheduleWrite()
		}
	})
}

// durable waits until everything this loop noted so far is written: a
// job's page is not over before its record and the links it found are
// on disk. So a kill -9 costs at most the jobs in flight, MaxTasks pages
// fetched again. Without a journal there is nothing to wait for.
func (c *Crawler) durable(y task.Yield) error {
	if !c.journaling() || c.store.failed() != nil {
		return nil
	}
	b := &c.batch
	if len(b.entries) == 0 && len(b.lines) == 0 && !b.writing {
		return nil
	}
	if b.written == nil {
		b.written = future.New[struct{}](c.loop)
	}
	c.scheduleWrite()
	_, err := task.Await(y, b.written)
	return err
}

// drain writes what is left, at the end of the crawl, and waits for it.
func (c *Crawler) drain(y task.Yield) {
	if c.store == nil {
		return
	}
	for (c.batch.writing || len(c.batch.entries) > 0 || len(c.batch.lines) > 0) && c.store.failed() == nil {
		if c.batch.written == nil {
			c.batch.written = future.New[struct{}](c.loop)
		}
		c.scheduleWrite()
		if _, err := task.Await(y, c.batch.written); err != nil {
			return
		}
	}
}

// storeFailed stops the crawl on a write that failed: every loop stops
// handing out work, and Crawl returns the error.
func (c *Crawler) storeFailed(err error) {
	c.store.fail(err) // Crawl returns it: the crawl's exit status says it
	c.notice(err.Error())
	c.budget.stopAll(c)
}

// replayInto is the Visitor that puts a replayed crawl back: each URL on
// the crawler that owns its server (one of crawlers, by ownerOf).
func replayInto(crawlers []*Crawler) func(journal.Visitor) journal.Visitor {
	owner := func(raw string) (*Crawler, *url.URL) {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, nil
		}
		return crawlers[ownerOf(u, len(crawlers))], u
	}
	return func(journal.Visitor) journal.Visitor {
		return journal.Visitor{
			Seen: func(raw string) {
				if c, _ := owner(raw); c != nil {
					c.seen.Add(raw)
				}
			},
			Queued: func(raw string, depth, redirects int32) {
				c, u := owner(raw)
				if c == nil {
					return
				}
				h := c.host(u)
				h.pages++
				c.queue(h, frontier.Item{URL: raw, Redirects: redirects, Depth: depth})
			},
			Robots: func(origin string, until time.Time, body []byte) {
				c, u := owner(origin + "/")
				if c == nil || c.cfg.NoRobots {
					return
				}
				h := c.host(u)
				h.rules = robots.Parse(body, productToken(c.cfg.UserAgent))
				if d, ok := h.rules.CrawlDelay(); ok {
					c.front.SetDelay(h.host, min(d, c.cfg.MaxCrawlDelay))
				}
				// The URLs replayed before this were queued without the rules
				// (a refused URL stays queued in the journal, never done): the
				// gate's filter refuses them now, as it did when the robots.txt
				// first came. The frontier keeps loop time.
				c.front.Open(h.host, c.loop.Time()+time.Until(until), func(it frontier.Item) bool { return c.robotsAllow(h, it.URL) })
			},
			Hold: func(authority string, until time.Time) {
				c, u := owner("http://" + authority + "/")
				if c != nil {
					c.front.HoldUntil(c.host(u).host, c.loop.Time()+time.Until(until))
				}
			},
		}
	}
}
