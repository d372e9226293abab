package crawler

import (
	"context"
	"encoding/json"
	"net/url"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/journal"
	"loopkit/crawler/urlnorm"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// writer is one loop's part of the store: the extension that makes a
// crawl outlive its process (extension.go). It turns what the crawl does
// into journal entries and JSON lines, gathers a turn's worth into one
// batch, and hands the batch to the executor. One batch is with the
// executor at a time; what is made meanwhile waits for the next, so
// batches grow when the disk is slow instead of piling up goroutines.
type writer struct {
	c     *Crawler
	store *store

	b         batch
	written   *future.Future[struct{}] // completes when this batch is written; made when someone waits
	after     []func()                 // called once this batch is written (afterWritten)
	writing   bool                     // a batch is with the executor
	scheduled bool                     // the batch leaves at the end of this turn
}

// batch is what a turn made: journal entries, then -o's lines, then what
// says the lines' pages are done (store.write writes them in that order).
type batch struct {
	entries []byte         // Q, S, R, H: what was found, sent, learnt
	lines   []byte         // -o's lines
	recs    []journal.Line // whose lines they are, for the journal to vouch for them
	dones   []byte         // D entries: pages done, with no -o file to vouch for them
}

func (b *batch) empty() bool { return len(b.entries) == 0 && len(b.lines) == 0 && len(b.dones) == 0 }

// journaling says whether the crawl keeps a journal.
func (w *writer) journaling() bool { return w.store.journal != nil }

func (w *writer) started() {}

// queued notes, for the journal, that a URL was found: it is to do until
// its record is written.
func (w *writer) queued(it frontier.Item) {
	if w.journaling() {
		w.b.entries = journal.AppendQueued(w.b.entries, it.URL, it.Depth, it.Redirects)
		w.schedule()
	}
}

// sent notes that a page's request went on the wire: if the crawl stops
// before its record is written, the next start hands it out last, so that
// a page that crashes the crawler does not crash each start first.
func (w *writer) sent(url string) {
	if w.journaling() {
		w.b.entries = journal.AppendSent(w.b.entries, url)
		w.schedule()
	}
}

// recorded notes a record: its line for the output, which the journal
// vouches for once it is written; or, with no output the journal can
// read back, a D entry saying its URL is done.
func (w *writer) recorded(r *Record) {
	if w.store.output != nil {
		b, err := json.Marshal(r)
		if err != nil { // a Record always marshals; say so if it ever does not
			w.c.notice("crawler: a record could not be written: " + err.Error())
			return
		}
		w.b.lines = append(append(w.b.lines, b...), '\n')
		if w.journaling() && w.store.output.Regular() {
			w.b.recs = append(w.b.recs, journal.Line{URL: r.URL, Depth: int32(r.Depth), Len: len(b) + 1})
			w.schedule()
			return
		}
	}
	if w.journaling() {
		w.b.dones = journal.AppendDone(w.b.dones, r.URL)
	}
	if !w.b.empty() {
		w.schedule()
	}
}

// dropped: a URL robots.txt refused stays queued in the journal, never
// done, and a resumed crawl screens it again.
func (w *writer) dropped(string) {}

// robotsLearnt keeps a host's robots.txt, so that a resumed crawl does
// not fetch it again before it expires.
func (w *writer) robotsLearnt(origin string, body []byte, until time.Time) {
	if w.journaling() {
		w.b.entries = journal.AppendRobots(w.b.entries, origin, until, body)
		w.schedule()
	}
}

// serverHeld keeps a Retry-After, so that a resumed crawl keeps it too.
func (w *writer) serverHeld(authority string, until time.Time) {
	if w.journaling() {
		w.b.entries = journal.AppendHold(w.b.entries, authority, until)
		w.schedule()
	}
}

// jobEnds waits until everything this loop noted so far is written: a
// job's page is not over before its record and the links it found reach
// the kernel. So a kill -9 costs at most the jobs in flight, MaxTasks
// pages fetched again. Without a journal there is nothing to wait for. A
// write that fails stops the crawl (store.stopCrawl), and Crawl returns
// its error: the job ends all the same.
func (w *writer) jobEnds(y task.Yield) {
	if !w.journaling() || w.store.failed() != nil || !w.pending() {
		return
	}
	w.wait(y)
}

// finish writes what is left, and waits for it.
func (w *writer) finish(y task.Yield) error {
	for w.pending() && w.store.failed() == nil {
		if err := w.wait(y); err != nil {
			break
		}
	}
	return w.store.failed()
}

func (w *writer) abandon() error { return nil }

// afterWritten calls fn on the loop once what was noted so far is
// written, or at once if nothing is waiting; never if the write fails
// (the crawl stops on it). A fleet settles a page there (shared.go).
func (w *writer) afterWritten(fn func()) {
	if !w.pending() {
		fn()
		return
	}
	w.after = append(w.after, fn)
	w.schedule()
}

// pending says whether a batch is made or on its way.
func (w *writer) pending() bool { return w.writing || !w.b.empty() }

// wait waits until the batch made so far is written.
func (w *writer) wait(y task.Yield) error {
	if w.written == nil {
		w.written = future.New[struct{}](w.c.loop)
	}
	w.schedule()
	_, err := task.Await(y, w.written)
	return err
}

// schedule hands the batch over at the end of this turn.
func (w *writer) schedule() {
	if !w.scheduled {
		w.scheduled = true
		w.c.loop.CallSoon(w.writeBatch)
	}
}

// writeBatch hands the batch to the executor, unless one is already there:
// then it goes when that one is written.
func (w *writer) writeBatch() {
	w.scheduled = false
	if w.writing || w.b.empty() {
		if !w.writing && w.written != nil { // waiters, and nothing to write: done
			w.written.SetResult(struct{}{})
			w.written = nil
		}
		if !w.writing {
			w.runAfter(w.takeAfter())
		}
		return
	}
	b, written, after := w.b, w.written, w.takeAfter()
	w.b, w.written = batch{}, nil
	w.writing = true
	s := w.store
	f := loop.RunInExecutor(w.c.loop, func(context.Context) (struct{}, error) { return struct{}{}, s.write(b) })
	f.OnDone(func() {
		w.writing = false
		err := f.Err()
		if written != nil {
			if err != nil {
				written.SetError(err)
			} else {
				written.SetResult(struct{}{})
			}
		}
		if err != nil {
			s.stopCrawl(w.c, err)
		} else {
			w.runAfter(after)
		}
		if w.pending() || w.written != nil {
			w.schedule()
		}
	})
}

func (w *writer) takeAfter() []func() {
	after := w.after
	w.after = nil
	return after
}

func (w *writer) runAfter(fns []func()) {
	for _, fn := range fns {
		fn()
	}
}

// replayVisitor puts a stopped crawl back: each URL on the crawler that
// owns its server, through the one way in (todo.go), and its host's
// robots.txt and its server's Retry-After likewise. What the crawl had
// seen is what every loop's seen set stands on (seen.go). The journal tells the
// counts before the queue, so the caps hold, and the queue before
// robots.txt, so the rules screen what was queued.
//
// With other settings than the runs before (Config.StateReuse: a new
// Config.Exclude to escape a trap, say), a queued URL passes this run's
// filters first (filter, addurl.go). Only here: a link or a redirect
// target came through follow, which has just filtered it with this run's;
// a link from another loop was filtered by it; a root passes no filter;
// a fleet's offer was filtered by the process that found it. And only
// then: with the same settings, the URL passed the same filters when it
// was queued, and a million of them would be filtered again for nothing.
func replayVisitor(crawlers []*Crawler, key urlnorm.SeenKey, tally *replayTally) journal.Visitor {
	owner := func(raw string) (*Crawler, *url.URL) {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, nil
		}
		return crawlers[ownerOf(u, len(crawlers))], u
	}
	return journal.Visitor{
		Known: func(base *journal.SeenBase) {
			if err := standOn(crawlers, key, base); err != nil {
				tally.err = err
			}
		},
		Pages: func(origin string, n int) {
			if c, u := owner(origin + "/"); c != nil {
				c.host(u).pages += n
			}
		},
		Variants: func(path string, n int) {
			if c, _ := owner(path); c != nil {
				c.variants[path] += n
			}
		},
		Queued: func(raw string, depth, redirects int32) {
			c, u := owner(raw)
			if c == nil {
				return
			}
			switch c.requeue(u, journal.Spilled{URL: raw, Depth: depth, Redirects: redirects}, tally.refilter) {
			case requeueEntered:
				tally.entered++
			case requeueFiltered:
				tally.filtered++
			}
		},
		Robots: func(origin string, until time.Time, body []byte) {
			if c, u := owner(origin + "/"); c != nil {
				c.learnRobots(c.host(u), body, until)
			}
		},
		Hold: func(authority string, until time.Time) {
			if c, u := owner("http://" + authority + "/"); c != nil {
				c.holdServer(c.host(u), until)
			}
		},
	}
}

// What requeue did with a URL.
const (
	requeueEntered  = iota // it is to do
	requeueFiltered        // this run's filters refuse it (refilter)
	requeueCapped          // a cap refused it (enter)
)

// requeue makes a URL the journal had to do this loop's to do again,
// through the one way in; with refilter, this run's filters first.
func (c *Crawler) requeue(u *url.URL, q journal.Spilled, refilter bool) int {
	if refilter {
		if reason := c.filter(u, int(q.Depth)); reason != "" && !c.isRoot(q.URL) {
			c.stats.Filtered[reason]++
			return requeueFiltered
		}
	}
	if c.enter(u, frontier.Item{URL: q.URL, Redirects: q.Redirects, Depth: q.Depth}, false) != "" {
		return requeueCapped
	}
	return requeueEntered
}

// complete says this loop's part of the crawl ran to its end: it was
// not interrupted, and nothing is left to do.
func (c *Crawler) complete() bool { return !c.stats.Interrupted && c.Todo() == 0 }

// replayTally counts what a replay's queue became.
type replayTally struct {
	refilter          bool // the filters changed (now or before): queued URLs pass this run's filters
	entered, filtered int
	err               error // the seen set could not stand on what the crawl had seen
}

// doneCounts is the journal's Options.Counts: what a URL done counts
// towards, when the crawl caps it — its host's pages
// (Config.MaxPagesPerHost), its path's queries (Config.MaxQueryVariants).
func doneCounts(cfg Config) func(raw string) (host, path string) {
	if cfg.MaxPagesPerHost <= 0 && cfg.MaxQueryVariants <= 0 {
		return nil
	}
	return func(raw string) (host, path string) {
		u, err := url.Parse(raw)
		if err != nil {
			return "", ""
		}
		if cfg.MaxPagesPerHost > 0 {
			host = origin(u)
		}
		if cfg.MaxQueryVariants > 0 && u.RawQuery != "" {
			path = pathKey(u)
		}
		return host, path
	}
}
