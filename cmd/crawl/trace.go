package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"loopkit/loop"
)

// newLoops makes the crawl's loops, --loops of them. They always keep
// loop.Stats — a clock read per callback — so that the crawl can say what
// each loop's worst stall was; with --trace (one loop only) the loop also
// writes one JSON line per turn to that file. finish closes the loops,
// prints a line per loop on stderr (unless -q), and closes the trace;
// call it once the crawl is over.
func newLoops(o *options, stderr io.Writer) (g *loop.Group, finish func(), err error) {
	opts := &loop.GroupOptions{Options: loop.Options{Poller: o.poller, Stats: true}}
	var tw *traceWriter
	if o.trace != "" {
		f, err := os.Create(o.trace)
		if err != nil {
			return nil, nil, err
		}
		tw = &traceWriter{f: f, w: bufio.NewWriterSize(f, 64<<10), ops: make(map[string]int)}
		opts.Trace = tw.write
	}
	g, err = loop.NewGroup(o.loops, opts)
	if err != nil {
		if tw != nil {
			tw.f.Close()
		}
		return nil, nil, err
	}
	return g, func() {
		g.Close() // first, so the trace has Close's system calls too
		if !o.quiet {
			for i := range g.Len() {
				line := stallLine(g.Loop(i).Stats())
				if g.Len() > 1 {
					line = fmt.Sprintf("loop %d: %s", i, strings.TrimPrefix(line, "loop: "))
				}
				fmt.Fprintln(stderr, "crawl: "+line)
			}
		}
		if tw != nil {
			if err := tw.close(); err != nil {
				fmt.Fprintf(stderr, "crawl: writing %s: %v\n", o.trace, err)
			} else if !o.quiet {
				fmt.Fprintf(stderr, "crawl: trace: %s in %s\n", tw.summary(), o.trace)
			}
		}
	}, nil
}

// stallLine is the loop's part of the crawl's stats, in one line: how it
// spent its time, and its worst stall — the longest that every connection
// waited because one callback held the loop.
func stallLine(s loop.Stats) string {
	return fmt.Sprintf("loop: %d turns, %d waits, asleep %s; %d callbacks, busy %s; longest %s (%s), p99 %s",
		s.Iterations, s.Waits, round(s.Asleep), s.Callbacks, round(s.Busy),
		round(s.Longest), shortFunc(s.LongestFunc), round(s.Durations.Percentile(0.99)))
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(100 * time.Nanosecond)
}

// shortFunc drops the module path from a function name: the line is for
// reading.
func shortFunc(name string) string {
	if name == "" {
		return "none"
	}
	return strings.TrimPrefix(name, "loopkit/")
}

// traceWriter writes the trace through a 64 KiB buffer. That is a
// blocking write(2) on the loop's goroutine every few hundred turns: a
// file is not pollable, and the page cache takes 64 KiB in tens of
// microseconds, so it is cheap — and it shows in the trace itself, as a
// longer turn. A production tracer writes into a ring buffer that
// another thread drains, so the loop never waits for the disk.
type traceWriter struct {
	f     *os.File
	w     *bufio.Writer
	line  []byte
	err   error
	turns int
	waits int
	ready int
	ops   map[string]int
}

func (t *traceWriter) write(it *loop.Iteration) {
	if !it.Outside {
		t.turns++
	}
	if it.Polled {
		t.waits++
	}
	t.ready += len(it.Ready)
	for _, op := range it.Ops {
		t.ops[op.Name]++
	}
	if t.err == nil {
		t.line = it.AppendJSON(t.line[:0])
		_, t.err = t.w.Write(t.line)
	}
}

func (t *traceWriter) close() error {
	err := t.err
	if ferr := t.w.Flush(); err == nil {
		err = ferr
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// summary counts what the trace holds: turns, waits, ready fds, and the
// system calls made through the loop, by name.
func (t *traceWriter) summary() string {
	names := make([]string, 0, len(t.ops))
	for name := range t.ops {
		names = append(names, name)
	}
	sort.Strings(names)
	var ops []string
	for _, name := range names {
		ops = append(ops, fmt.Sprintf("%s %d", name, t.ops[name]))
	}
	return fmt.Sprintf("%d turns, %d waits, %d ready fds; calls: %s", t.turns, t.waits, t.ready, strings.Join(ops, ", "))
}
