package main

import (
	"os"
	"strconv"
	"sync"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/timeline"
	"loopkit/loop"
)

// instruments are what --trace, --trace_events and --timeline listen
// with. Each loop has a recorder of its own, which only that loop calls
// (loop.GroupOptions.TraceLoop), so the loops never wait for each other
// between turns. The crawl's requests (Config.OnAttempt, which the Group
// serializes) and the parse workers' pages (Config.OnParse, one buffer
// per worker) come in beside them.
type instruments struct {
	epoch  time.Time   // the clock of --trace_events and --timeline: time since epoch
	loops  []*recorder // by loop
	jsonl  *sharedFile // --trace
	events *eventsFile // --trace_events
	bars   []timeline.Bar
	draw   bool // --timeline
}

// recorder hears every turn of one loop, and hands it to what was asked for.
type recorder struct {
	offset time.Duration // this loop's clock + offset = time since epoch
	jsonl  *jsonlWriter
	events *loopEvents
	lane   *timeline.LoopLane
}

func (r *recorder) trace(it *loop.Iteration) {
	if r.jsonl != nil {
		r.jsonl.write(it)
	}
	if r.events != nil {
		r.events.write(it, r.offset)
	}
	if r.lane != nil {
		r.lane.Add(it)
	}
}

// newInstruments prepares the recorders of n loops, and opens the files.
// It returns nil when nothing is asked for: the loops are then not traced.
func newInstruments(o *options, n int) (*instruments, error) {
	if o.trace == "" && o.events == "" && o.timeline == "" {
		return nil, nil
	}
	in := &instruments{epoch: time.Now(), draw: o.timeline != ""}
	if o.trace != "" {
		f, err := os.Create(o.trace)
		if err != nil {
			return nil, err
		}
		in.jsonl = &sharedFile{f: f}
	}
	if o.events != "" {
		ev, err := createEvents(o.events, n, max(o.cfg.ParseWorkers, 0))
		if err != nil {
			in.closeFiles()
			return nil, err
		}
		in.events = ev
	}
	for i := range n {
		r := &recorder{}
		if in.jsonl != nil {
			r.jsonl = newJSONLWriter(in.jsonl, i, n > 1)
		}
		if in.events != nil {
			r.events = in.events.loop(i)
		}
		if in.draw {
			r.lane = &timeline.LoopLane{Name: "loop " + strconv.Itoa(i)}
		}
		in.loops = append(in.loops, r)
	}
	if in.events != nil || in.draw {
		o.cfg.OnAttempt = in.attempted
	}
	if in.events != nil {
		o.cfg.OnParse = in.events.parsed(in.epoch)
	}
	return in, nil
}

// traceLoop is loop.GroupOptions.TraceLoop.
func (in *instruments) traceLoop(i int) func(*loop.Iteration) { return in.loops[i].trace }

// started learns each loop's clock, before the loops run: a loop's
// clock starts when the loop is made, so each has its own zero.
func (in *instruments) started(g *loop.Group) {
	for i, r := range in.loops {
		// Read together, the two clocks say where this loop's zero is
		// (to within the tens of nanoseconds between the two reads).
		r.offset = time.Since(in.epoch) - g.Loop(i).Time()
		if r.lane != nil {
			r.lane.Offset = r.offset
		}
	}
	if in.events != nil {
		in.events.describe(g.Loop(0).PollerName())
	}
}

// attempted is Config.OnAttempt: one request, on the instruments' clock.
func (in *instruments) attempted(a *crawler.Attempt) {
	offset := in.loops[a.Loop].offset
	if in.events != nil {
		in.events.conns.attempted(a, offset)
	}
	if in.draw {
		in.bars = append(in.bars, barOf(a, offset))
	}
}

func (in *instruments) closeFiles() {
	if in.jsonl != nil {
		in.jsonl.f.Close()
	}
	if in.events != nil {
		in.events.file.f.Close()
	}
}

// sharedFile is a file several goroutines write to, each through a
// buffer of its own (buffered): a writer takes the lock only to hand
// over a full buffer, every few hundred turns of its loop. The write is
// a blocking write(2) on that loop's goroutine — a file is not pollable —
// and the page cache takes 64 KiB in tens of microseconds; it shows in
// the trace as a longer turn. A production tracer writes into a ring
// buffer that another thread drains, so a loop never waits for the disk.
type sharedFile struct {
	mu  sync.Mutex
	f   *os.File
	err error
}

func (s *sharedFile) write(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		_, s.err = s.f.Write(b)
	}
}

// close returns the first error of the file's writes, or of its close.
func (s *sharedFile) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.f.Close(); s.err == nil {
		s.err = err
	}
	return s.err
}

// buffered is one writer's buffer onto a sharedFile.
type buffered struct {
	file *sharedFile
	buf  []byte
}

const flushAt = 64 << 10

// done hands the buffer over if it is full.
func (w *buffered) done() {
	if len(w.buf) >= flushAt {
		w.flush()
	}
}

func (w *buffered) flush() {
	if len(w.buf) > 0 {
		w.file.write(w.buf)
		w.buf = w.buf[:0]
	}
}
