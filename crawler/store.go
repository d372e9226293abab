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

// openStore opens the crawl's output and state directory. replay, which
// must follow once the crawlers are made, starts the fsync every second.
func openStore(cfg Config, notice func(string)) (*store, error) {
	s := &store{stop: make(chan struct{})}
	if cfg.State != "" {
		j, err := journal.Open(cfg.State, SettingsOf(cfg), cfg.StateReuse)
		if err != nil {
			return nil, &ConfigError{Field: "State", Err: err}
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
			return nil, &ConfigError{Field: "Output", Err: err}
		}
		for _, n := range s.output.Notices() {
			notice(n)
		}
	}
	return s, nil
}

// writes says whether the crawl has anything to write: an output, or a
// journal.
func (s *store) writes() bool { return s.journal != nil || s.output != nil }

// replay brings back what a stopped crawl left (resume), telling v. With
// an output, the pages done are its whole lines, read again from the file
// rather than held in memory (a million URLs would be 100 MB of strings).
// Then the fsync every second starts: the replay may rewrite the journal
// and reopen it, and a sync meanwhile would read the file being replaced.
func (s *store) replay(cfg Config, v journal.Visitor, notice func(string)) error {
	if s.journal == nil {
		s.startSyncing()
		return nil
	}
	var fromOutput func(func(string)) error
	if s.output != nil {
		fromOutput = func(yield func(string)) error { return journal.ReadURLs(cfg.Output, yield) }
	}
	sum, err := s.journal.Replay(time.Now(), v, fromOutput)
	for _, n := range s.journal.Notices() {
		notice(n)
	}
	if err != nil {
		s.close()
		return &ConfigError{Field: "State", Err: err}
	}
	if s.journal.Resumed() {
		s.resumed = true
		notice(fmt.Sprintf("resuming the crawl in %s: %d URLs done, %d to do", cfg.State, sum.Done, sum.ToDo))
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
// lines. In that order, a stop between the two leaves links queued whose
// page is not done yet — fetched again — never a page done whose links
// were lost.
func (s *store) write(entries, lines []byte) error {
	if s.beforeWrite != nil {
		s.beforeWrite()
	}
	if len(entries) > 0 {
		if err := s.journal.Write(entries); err != nil {
			return s.fail(&ConfigError{Field: "State", Err: fmt.Errorf("writing the journal: %w", plainly(err))})
		}
	}
	if len(lines) > 0 {
		if err := s.output.Write(lines); err != nil {
			return s.fail(&ConfigError{Field: "Output", Err: plainly(err)})
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

// stopCrawl stops the crawl on a write that failed: every loop stops
// handing out work, the operator is told, and Crawl returns the error.
func (s *store) stopCrawl(c *Crawler, err error) {
	s.fail(err)
	c.notice(err.Error())
	c.budget.stopAll(c)
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
