package journal

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// A Backlog is the rest of a stopped crawl's queue: the URLs to do that
// Replay did not tell Visitor.Queued before it returned
// (Visitor.Upfront). A crawl stopped half way through ten million pages
// leaves four million URLs to do. Read, parsed and put back in a queue
// before the first request, they kept the crawl from starting for eight
// seconds; most of them would only have been written to disk again
// (the crawler's spill) to wait their turn. So Replay hands out the
// first of them, and the rest wait where they are, in the snapshot and
// the journals, read in order as the crawl asks for more.
//
// A goroutine reads them, one batch ahead of the crawl: the same pass as
// Replay's (handOut), paused whenever its next batch is not wanted yet.
// It reads each file only up to the size it had at the start, so what
// the new run appends is never read back as old. A fold meanwhile
// removes files it reads; the files stay open, and their bytes readable,
// until it is done (on Linux and the BSDs, a removed file lives on while
// it is open).
//
// Its methods Next and Close block on the disk: the crawler calls them
// from its executor, never from a loop.
type Backlog struct {
	batches chan batchRead
	stop    chan struct{}
	done    chan struct{} // closed once the reader has ended, its files closed
	files   []*os.File
	left    atomic.Int64 // at most this many URLs to come
	ended   bool         // Next has said io.EOF, or an error
	once    sync.Once
}

// ErrBacklogClosed is Next's error once Close was called.
var ErrBacklogClosed = errors.New("journal: the backlog was closed")

// batchRead is what the reader hands over at a time: a batch of URLs,
// or, last, the error that ended the reading (io.EOF at the end).
type batchRead struct {
	urls []Spilled
	err  error
}

// backlogBatch is how many URLs a batch holds, at most: enough that the
// crawler asks its executor once for a thousand URLs, not once each. A
// crawl that takes fewer upfront (Visitor.Upfront) reads batches of that
// many.
const backlogBatch = 1024

// startBacklog starts the reader: handOut reads the queue and emits the
// URLs to do, and calls pass for each entry it reads but leaves out
// (done since, or told before). left is at most how many URLs it will
// emit; files are what it reads, closed when it ends; size is how many
// URLs a batch holds.
func startBacklog(left int64, size int, files []*os.File, handOut func(emit func(Spilled), pass func()) error) *Backlog {
	b := &Backlog{batches: make(chan batchRead), stop: make(chan struct{}), done: make(chan struct{}), files: files}
	b.left.Store(left)
	go b.read(size, handOut)
	return b
}

func (b *Backlog) read(size int, handOut func(emit func(Spilled), pass func()) error) {
	defer close(b.done)
	defer closeAll(b.files)
	var batch []Spilled
	stopped := false
	send := func(m batchRead) bool {
		select {
		case b.batches <- m:
			return true
		case <-b.stop:
			stopped = true
			return false
		}
	}
	err := handOut(func(u Spilled) {
		if stopped {
			return
		}
		batch = append(batch, u)
		if len(batch) == size && send(batchRead{urls: batch}) {
			batch = nil
		}
	}, func() { b.left.Add(-1) })
	if stopped {
		return
	}
	if len(batch) > 0 && !send(batchRead{urls: batch}) {
		return
	}
	if err == nil {
		err = io.EOF
	}
	send(batchRead{err: err})
}

// Next is the next batch of URLs to do, in order; io.EOF once there are
// no more. An error (a damaged snapshot, say) ends it too. It gives up,
// with ctx's error, when ctx ends, and with ErrBacklogClosed once Close
// was called; a batch not taken stays for the next call.
func (b *Backlog) Next(ctx context.Context) ([]Spilled, error) {
	if b.ended {
		return nil, io.EOF
	}
	var m batchRead
	select {
	case m = <-b.batches:
	case <-b.done:
		return nil, ErrBacklogClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if m.err != nil {
		b.ended = true
		b.left.Store(0)
		return nil, m.err
	}
	b.left.Add(-int64(len(m.urls)))
	return m.urls, nil
}

// Left is at most how many URLs are still to come: it counts the queue's
// entries not yet read, some of which will turn out done or told before.
// It is 0 once Next has said io.EOF; after Close, it is what was left
// then. Unlike Next, it may be asked from any goroutine.
func (b *Backlog) Left() int { return int(max(b.left.Load(), 0)) }

// Close stops the reader, if it is still reading, and waits until its
// files are closed. Closing the files ends a read in progress.
func (b *Backlog) Close() {
	b.once.Do(func() {
		close(b.stop)
		closeAll(b.files)
		<-b.done
	})
}
