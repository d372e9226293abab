package crawler

import (
	"context"
	"encoding/json"
	"net/url"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/journal"
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

	entries, lines []byte
	written        *future.Future[struct{}] // completes when this batch is written; made when someone waits
	writing        bool                     // a batch is with the executor
	scheduled      bool                     // the batch leaves at the end of this turn
}

// journaling says whether the crawl keeps a journal.
func (w *writer) journaling() bool { return w.store.journal != nil }

func (w *writer) started() {}

// queued notes, for the journal, that a URL was found: it is to do until
// its record is written.
func (w *writer) queued(it frontier.Item) {
	if w.journaling() {
		w.entries = journal.AppendQueued(w.entries, it.URL, it.Depth, it.Redirects)
		w.schedule()
	}
}

// recorded notes a record: its line for the output, or, with no output,
// for the journal, that its URL is done.
func (w *writer) recorded(r *Record) {
	switch {
	case w.store.output != nil:
		b, err := json.Marshal(r)
		if err != nil { // a Record always marshals; say so if it ever does not
			w.c.notice("crawler: a record could not be written: " + err.Error())
			return
		}
		w.lines = append(append(w.lines, b...), '\n')
	case w.journaling():
		w.entries = journal.AppendDone(w.entries, r.URL)
	default:
		return
	}
	w.schedule()
}

// dropped: a URL robots.txt refused stays queued in the journal, never
// done, and a resumed crawl screens it again.
func (w *writer) dropped(string) {}

// robotsLearnt keeps a host's robots.txt, so that a resumed crawl does
// not fetch it again before it expires.
func (w *writer) robotsLearnt(origin string, body []byte, until time.Time) {
	if w.journaling() {
		w.entries = journal.AppendRobots(w.entries, origin, until, body)
		w.schedule()
	}
}

// serverHeld keeps a Retry-After, so that a resumed crawl keeps it too.
func (w *writer) serverHeld(authority string, until time.Time) {
	if w.journaling() {
		w.entries = journal.AppendHold(w.entries, authority, until)
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

// pending says whether a batch is made or on its way.
func (w *writer) pending() bool { return w.writing || len(w.entries) > 0 || len(w.lines) > 0 }

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
	if w.writing || len(w.entries) == 0 && len(w.lines) == 0 {
		if !w.writing && w.written != nil { // waiters, and nothing to write: done
			w.written.SetResult(struct{}{})
			w.written = nil
		}
		return
	}
	entries, lines, written := w.entries, w.lines, w.written
	w.entries, w.lines, w.written = nil, nil, nil
	w.writing = true
	s := w.store
	f := loop.RunInExecutor(w.c.loop, func(context.Context) (struct{}, error) { return struct{}{}, s.write(entries, lines) })
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
		}
		if w.pending() || w.written != nil {
			w.schedule()
		}
	})
}

// replayVisitor puts a stopped crawl back: each URL on the crawler that
// owns its server, through the one way in (todo.go), and its host's
// robots.txt and its server's Retry-After likewise. The journal replays
// the queue before robots.txt, so the rules screen what was queued.
func replayVisitor(crawlers []*Crawler) journal.Visitor {
	owner := func(raw string) (*Crawler, *url.URL) {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, nil
		}
		return crawlers[ownerOf(u, len(crawlers))], u
	}
	return journal.Visitor{
		Seen: func(raw string) {
			if c, _ := owner(raw); c != nil {
				c.seen.Add(raw)
			}
		},
		Queued: func(raw string, depth, redirects int32) {
			if c, u := owner(raw); c != nil {
				c.enter(u, frontier.Item{URL: raw, Redirects: redirects, Depth: depth})
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
