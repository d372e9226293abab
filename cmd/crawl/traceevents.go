package main

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"loopkit/loop"
)

// --trace_events writes the crawl in the Trace Event Format: the JSON that
// Chrome's tracing writes, that Node.js writes with --trace-events, and
// that Perfetto (https://ui.perfetto.dev), chrome://tracing and speedscope
// (its build from npm works offline) open. The file is one JSON object,
// {"traceEvents":[...]}, and each event says what ("name", "cat"), of
// which kind ("ph"), when ("ts", and "dur" for a slice, in whole
// microseconds: see micros), and on which track ("pid" and "tid").
//
// Everything is a complete slice ("X") on a thread, which every viewer
// draws; speedscope draws nothing else. What the crawl becomes, in the
// viewer:
//
//   - a process per loop ("loop 0", ...). Its first thread is the loop:
//     a slice per turn ("turn"), and inside it the turn's wait ("wait",
//     or "poll" when the timeout was 0) and its callbacks, each a slice
//     named by its function. The turn's system calls and what woke the
//     wait are in the slices' arguments (click one).
//   - in each loop's process, a thread per connection of its client
//     ("conn 3"): its requests one after the other, each split into its
//     phases (dns, connect, tls, write, wait, read); and a thread per
//     host ("host 127.0.0.1:8080") whose slices stack up as its requests
//     in flight do ("1 in flight", and inside it "2 in flight", ...): a
//     host's ramp-up. Each host's requests in flight are a counter too,
//     which Perfetto draws as a graph.
//   - a process "parse workers", a thread per worker, a slice per page.
//
// Times are since the crawl's start (the instruments' epoch): each
// loop's own clock is moved onto it (instruments.started).

// Thread ids in a loop's process: the loop, then its connections, then
// its hosts (and requests that never had a connection, a thread each).
const (
	loopTid    = 1
	connTid0   = 1000    // conn N is thread connTid0+N
	hostTid0   = 1000000 // the loop's host i is thread hostTid0+i
	noConnTid0 = 2000000 // a request with no connection
)

// eventsFile is the --trace_events file, written by every loop, by the
// Group's OnAttempt and by the parse workers, each through its own buffer.
type eventsFile struct {
	file    *sharedFile
	loops   []*loopEvents
	conns   *connEvents
	workers []buffered   // by worker: each worker writes only its own
	parses  []int        // pages, by worker
	parseAt []int64      // where each worker's last page ended, in microseconds
	lost    atomic.Int64 // parse events of a worker beyond those expected
}

// createEvents opens path for a crawl of n loops and workers parse workers.
func createEvents(path string, n, workers int) (*eventsFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	e := &eventsFile{file: &sharedFile{f: f}, workers: make([]buffered, workers), parses: make([]int, workers), parseAt: make([]int64, workers)}
	for i := range n {
		e.loops = append(e.loops, &loopEvents{out: buffered{file: e.file}, pid: i + 1})
	}
	for i := range e.workers {
		e.workers[i].file = e.file
	}
	e.conns = &connEvents{out: buffered{file: e.file}, conns: map[connKey]*connState{}}
	return e, nil
}

func (e *eventsFile) loop(i int) *loopEvents { return e.loops[i] }

// workersPid is the parse workers' process: after the loops'.
func (e *eventsFile) workersPid() int { return len(e.loops) + 1 }

// describe writes the file's head: the object's opening, and the names
// of the processes and threads, which the viewer shows as the tracks'
// names. Every event after the first starts with a comma.
func (e *eventsFile) describe(poller string) {
	var meta []byte
	for i, l := range e.loops {
		meta = appendMeta(meta, "process_name", l.pid, 0, fmt.Sprintf("loop %d", i))
		meta = appendSort(meta, "process_sort_index", l.pid, 0, i)
		meta = appendMeta(meta, "thread_name", l.pid, loopTid, fmt.Sprintf("loop %d (%s)", i, poller))
		meta = appendSort(meta, "thread_sort_index", l.pid, loopTid, 0)
	}
	if len(e.workers) > 0 {
		meta = appendMeta(meta, "process_name", e.workersPid(), 0, "parse workers")
		meta = appendSort(meta, "process_sort_index", e.workersPid(), 0, len(e.loops))
		for w := range e.workers {
			meta = appendMeta(meta, "thread_name", e.workersPid(), w+1, fmt.Sprintf("worker %d", w))
		}
	}
	head := append([]byte(`{"traceEvents":[`+"\n"), meta[len(",\n"):]...)
	e.file.write(head)
}

// close writes what every buffer holds and the object's end, closes the
// file, and says what it holds. Call it once the loops are closed and
// the workers gone.
func (e *eventsFile) close() (string, error) {
	turns, calls := 0, 0
	for _, l := range e.loops {
		l.out.flush()
		turns += l.turns
		calls += l.calls
	}
	requests, conns := e.conns.finish()
	e.conns.out.flush()
	pages := 0
	for w := range e.workers {
		e.workers[w].flush()
		pages += e.parses[w]
	}
	e.file.write([]byte("\n],\"displayTimeUnit\":\"ms\"}\n"))
	err := e.file.close()
	if lost := e.lost.Load(); err == nil && lost > 0 {
		err = fmt.Errorf("%d parse events came from workers beyond the %d expected, and are not in it", lost, len(e.workers))
	}
	size := "?"
	if st, serr := os.Stat(e.file.f.Name()); serr == nil {
		size = fmt.Sprintf("%.1f MB", float64(st.Size())/1e6)
	}
	return fmt.Sprintf("%s and %s on %s, %s on %s, %s on %s: %s",
		plural(turns, "turn"), plural(calls, "callback"), plural(len(e.loops), "loop"),
		plural(requests, "request"), plural(conns, "connection"),
		plural(pages, "page"), plural(len(e.workers), "parse worker"), size), err
}

// loopEvents writes one loop's turns, on that loop's goroutine.
type loopEvents struct {
	out          buffered
	pid          int
	turns, calls int
	ops          []byte // a turn's system calls, as an argument
	end          int64  // where the thread's last slice ended, in microseconds
}

// everything is the span a turn or an outside record is clamped into:
// the whole thread, after the last slice.
var everything = span{start: math.MinInt64, end: math.MaxInt64}

// write writes a turn: its slice, its wait's and its callbacks', each
// inside the turn and after the one before. A record of what happened
// outside any turn (before the loop ran, or in Close) has its callbacks
// and, as an instant, its system calls.
func (e *loopEvents) write(it *loop.Iteration, offset time.Duration) {
	b := e.out.buf
	e.ops = appendOps(e.ops[:0], it.Ops)
	parent := everything
	cursor := &e.end
	if it.Outside {
		if len(it.Ops) > 0 {
			b = appendEvent(b, "i", "outside a turn", "loop", e.pid, loopTid, max(micros(it.Start+offset), e.end))
			b = append(b, `,"s":"t","args":{"system calls":`...)
			b = append(appendString(b, string(e.ops)), "}}"...)
		}
	} else {
		e.turns++
		turn := everything.inside(&e.end, micros(it.Start+offset), micros(it.End+offset))
		b = appendSlice(b, "turn", "loop", e.pid, loopTid, turn)
		b = append(b, `,"args":{"n":`...)
		b = strconv.AppendUint(b, it.N, 10)
		b = append(b, `,"callbacks":`...)
		b = strconv.AppendInt(b, int64(it.Callbacks), 10)
		if len(it.Ops) > 0 {
			b = appendArg(b, "system calls", string(e.ops))
		}
		b = append(b, "}}"...)
		parent, cursor = turn, new(int64)
		*cursor = turn.start
		if it.Polled {
			wait := parent.inside(cursor, turn.start, micros(it.Start+it.Asleep+offset))
			b = e.appendWait(b, it, wait)
		}
	}
	for _, c := range it.Calls {
		e.calls++
		b = appendSlice(b, shortFunc(c.Func), "callback", e.pid, loopTid, parent.inside(cursor, micros(c.Start+offset), micros(c.End+offset)))
		b = append(b, '}')
	}
	e.out.buf = b
	e.out.done()
}

// appendWait is the turn's wait: how long it could sleep, how long it
// did, and what ended it.
func (e *loopEvents) appendWait(b []byte, it *loop.Iteration, sp span) []byte {
	name := "wait"
	if it.Timeout == 0 {
		name = "poll" // a zero timeout: it could not sleep
	}
	b = appendSlice(b, name, "loop", e.pid, loopTid, sp)
	timeout := "forever"
	if it.Timeout >= 0 {
		timeout = round(it.Timeout).String()
	}
	b = append(b, `,"args":{"timeout":`...)
	b = appendString(b, timeout)
	if it.Timeout != 0 {
		b = appendArg(b, "woken by", wokenBy(it))
	}
	if len(it.Ready) > 0 {
		var ready []string
		for _, r := range it.Ready {
			ready = append(ready, fdString(r.FD, r.Read, r.Write))
		}
		b = appendArg(b, "ready", strings.Join(ready, ", "))
	}
	return append(b, "}}"...)
}

// wokenBy says what ended a wait that could sleep.
func wokenBy(it *loop.Iteration) string {
	var why []string
	if len(it.Ready) > 0 {
		why = append(why, plural(len(it.Ready), "ready fd"))
	}
	if it.Timers > 0 {
		why = append(why, plural(it.Timers, "timer")+" due")
	}
	if it.Posted > 0 {
		why = append(why, plural(it.Posted, "callback")+" posted by another goroutine")
	}
	if len(why) == 0 {
		return "nothing: the wait ran out"
	}
	return strings.Join(why, ", ")
}

func fdString(fd int, r, w bool) string {
	s := "fd " + strconv.Itoa(fd) + " "
	if r {
		s += "r"
	}
	if w {
		s += "w"
	}
	return s
}

// appendOps lists system calls as strace would name them, tersely:
// "socket fd 9, connect fd 9 EINPROGRESS, register fd 9 w".
func appendOps(b []byte, ops []loop.Op) []byte {
	for i, op := range ops {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, op.Name...)
		b = append(b, " fd "...)
		b = strconv.AppendInt(b, int64(op.FD), 10)
		if op.Read || op.Write {
			b = append(b, ' ')
			if op.Read {
				b = append(b, 'r')
			}
			if op.Write {
				b = append(b, 'w')
			}
		}
		if op.Name == "read" || op.Name == "write" {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(op.N), 10)
			b = append(b, " bytes"...)
		}
		if op.Err != "" {
			b = append(b, ' ')
			b = append(b, op.Err...)
		}
	}
	return b
}
