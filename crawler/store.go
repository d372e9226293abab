package crawler

import (
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"loopkit/crawler/journal"
	"loopkit/netpoll"
)

// store is where a crawl writes: its JSON Lines (Config.Output) and its
// state directory (Config.State, package crawler/journal). A Group's
// loops share one; each loop hands it its writes through its own writer
// (persist.go). Its files are written only from executor goroutines: a
// disk file is not pollable, and a loop that wrote one would stall every
// connection for as long as the disk took.
type store struct {
	resumed  bool             // the state directory held this crawl before
	finished bool             // ... and it had ended, with nothing left to do
	journal  *journal.Journal // nil without Config.State
	output   *journal.Output  // nil without Config.Output
	stop     chan struct{}    // ends the syncer
	synced   sync.WaitGroup
	mu       sync.Mutex
	err      error          // the first write that failed: the crawl stops on it
	stopped  bool           // stopCrawl said so
	budget   *budget        // the crawl's: halted as soon as a write fails
	spill    *journal.Spill // long host queues' overflow, opened on first need; every loop's (spill.go)
	later    *backlog       // the rest of a stopped crawl's queue (backlog.go), or nil

	beforeWrite func() // a test's hook: called on the executor before each batch
}

// openStore opens the crawl's output and state directory. Nothing is
// written yet: replay, which must follow once the crawlers are made,
// starts the journal and the fsync every second, once the crawl could
// start.
func openStore(cfg Config, notice func(string)) (*store, error) {
	s := &store{stop: make(chan struct{})}
	if cfg.State != "" {
		j, err := journal.Open(cfg.State, SettingsOf(cfg),
			journal.Options{Reuse: cfg.StateReuse, Counts: doneCounts(cfg), FoldMin: journalFoldMin})
		if err != nil {
			return nil, &ConfigError{Field: "State", Err: err}
		}
		s.journal = j
	}
	if cfg.Output != "" {
		var err error
		switch {
		case s.journal != nil:
			s.output, err = journal.Append(cfg.Output) // the journal says which of its lines are done: replay checks them
			if err == nil && s.journal.NewOutput() && s.output.Regular() && s.output.Size() > 0 {
				err = fmt.Errorf("%s holds %d bytes already, and the crawl in %s has never written to it: they are not its lines; give another file, or remove this one",
					cfg.Output, s.output.Size(), cfg.State)
			}
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
			return nil, &ConfigError{Field: "Output", Err: err}
		}
		for _, n := range s.output.Notices() {
			notice(n)
		}
	}
	return s, nil
}

// journalFoldMin is the journal's Options.FoldMin (0: its default): a
// variable only so that a test can make a crawl fold its journal often.
var journalFoldMin int64

// writes says whether the crawl has anything to write: an output, or a
// journal.
func (s *store) writes() bool { return s.journal != nil || s.output != nil }

// replay brings back what a stopped crawl left (resume), telling v, and
// starts the journal: from here on the crawl writes. Then the fsync every
// second starts.
func (s *store) replay(cfg Config, crawlers []*Crawler, g *Group, notice func(string)) error {
	if s.journal == nil {
		s.startSyncing()
		return nil
	}
	tally := replayTally{refilter: s.journal.Refilter()}
	v := replayVisitor(crawlers, s.journal.SeenKey(), &tally)
	v.Upfront = max(cfg.QueueMemory, 0) // as many as the queue keeps in memory; the rest as the crawl goes (backlog.go)
	sum, err := s.journal.Replay(time.Now(), v, s.output)
	if sum.Later != nil {
		s.later = &backlog{b: sum.Later, crawlers: crawlers, group: g, refilter: tally.refilter, start: time.Now()}
		for _, c := range crawlers {
			c.overflow.later = s.later
		}
	}
	for _, n := range s.journal.Notices() {
		notice(n)
	}
	if err == nil {
		err = tally.err
	}
	if err == nil {
		err = s.journal.Begin()
	}
	if err != nil {
		s.close()
		return &ConfigError{Field: "State", Err: err}
	}
	if s.journal.Resumed() {
		s.resumed, s.finished = true, sum.Finished
		for _, c := range crawlers {
			c.restarted()
		}
		msg := fmt.Sprintf("resuming the crawl in %s: %d URLs done, %d to do", cfg.State, sum.Done, tally.entered)
		if tally.filtered > 0 {
			msg += fmt.Sprintf(" (and %d queued URLs this run's filters refuse, dropped)", tally.filtered)
		}
		if s.later != nil {
			msg += fmt.Sprintf(", and at most %d more read from the state directory as the crawl goes", sum.Later.Left())
		}
		notice(msg)
	} else {
		for _, c := range crawlers { // no seen set to stand on, but one key for the crawl
			c.seen.setKey(s.journal.SeenKey())
		}
	}
	s.startSyncing()
	return nil
}

// SettingsOf is what makes two runs, or two processes, one crawl: its
// roots, scope, filters and output.
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

func (s *store) startSyncing() {
	if s.writes() {
		s.synced.Add(1)
		go s.syncEverySecond()
	}
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
// lines, then the entries that say the lines' pages are done — for -o's
// lines, which bytes hold them, from where Output.Write put them. In that
// order, a stop anywhere leaves links queued whose page is not done yet —
// fetched again — never a page done whose links were lost (the journal's
// log.go says how a power cut is read). After a write failed, nothing
// more is written.
func (s *store) write(b batch) error {
	if s.beforeWrite != nil {
		s.beforeWrite()
	}
	if err := s.failed(); err != nil {
		return err
	}
	if len(b.lines) == 0 {
		b.entries = append(b.entries, b.dones...)
		b.dones = nil
	}
	if len(b.entries) > 0 {
		if err := s.journal.Write(b.entries); err != nil {
			return s.fail(&ConfigError{Field: "State", Err: fmt.Errorf("writing the journal: %w", plainly(err))})
		}
	}
	if len(b.lines) > 0 {
		from, err := s.output.Write(b.lines)
		if err != nil {
			return s.fail(&ConfigError{Field: "Output", Err: plainly(err)})
		}
		post := journal.AppendOutput(b.dones, from, b.lines, b.recs)
		if len(post) > 0 {
			if err := s.journal.Write(post); err != nil {
				return s.fail(&ConfigError{Field: "State", Err: fmt.Errorf("writing the journal: %w", plainly(err))})
			}
		}
	}
	return nil
}

// plainly says a full disk in plain words.
func plainly(err error) error {
	if netpoll.IsNoSpace(err) {
		return fmt.Errorf("no room to write (%w): the crawl stops; make room and run the same crawl again to go on", err)
	}
	return err
}

// fail records the first write that failed, and halts the budget at
// once, from whichever goroutine saw it: no loop hands out another job
// while the news crosses to them (stopCrawl).
func (s *store) fail(err error) error {
	if err == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
		if s.budget != nil {
			s.budget.halted.Store(true)
		}
	}
	return err
}

// failed is the first write that failed, if one did.
func (s *store) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// stopCrawl stops the crawl on a write that failed: no loop hands out
// anything more — the budget refuses every job from now on (budget.halt),
// and every frontier is stopped — so what is in flight is all the crawl
// does before Crawl returns the error, once, which says it to the
// operator.
func (s *store) stopCrawl(c *Crawler, err error) {
	s.mu.Lock()
	first := !s.stopped
	s.stopped = true
	s.mu.Unlock()
	s.fail(err)
	if first {
		c.budget.halt(c)
	}
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

// end says, in the journal, that the crawl is over with nothing left to
// do (complete), so that the next start says it was finished rather than
// guess it from an empty queue.
func (s *store) end(complete bool) {
	if complete && s.journal != nil && s.failed() == nil {
		s.fail(s.journal.End())
	}
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
	if s.later != nil {
		s.later.b.Close()
	}
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
