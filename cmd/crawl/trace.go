package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"loopkit/loop"
)

// newLoops makes the crawl's loops, --loops of them. They always keep
// loop.Stats — a clock read per callback — so that the crawl can say what
// each loop's worst stall was. With --trace, --trace_events or
// --timeline each loop also hands every turn to a recorder of its own
// (observe.go). finish closes the loops, prints a line per loop on stderr
// (unless -q), and writes and closes the traces; call it once the crawl
// is over.
func newLoops(o *options, stderr io.Writer) (g *loop.Group, finish func(), err error) {
	opts := &loop.GroupOptions{Options: loop.Options{Poller: o.poller, Stats: true}}
	in, err := newInstruments(o, o.loops)
	if err != nil {
		return nil, nil, err
	}
	if in != nil {
		opts.TraceLoop = in.traceLoop
	}
	g, err = loop.NewGroup(o.loops, opts)
	if err != nil {
		if in != nil {
			in.closeFiles()
		}
		return nil, nil, err
	}
	if in != nil {
		in.started(g)
	}
	o.instruments = in
	return g, func() {
		g.Close() // first, so the traces have Close's system calls too
		if !o.quiet {
			for i := range g.Len() {
				line := stallLine(g.Loop(i).Stats())
				if g.Len() > 1 {
					line = fmt.Sprintf("loop %d: %s", i, strings.TrimPrefix(line, "loop: "))
				}
				fmt.Fprintln(stderr, "crawl: "+line)
			}
		}
		if in != nil {
			in.finish(o, stderr)
		}
	}, nil
}

// finish writes what is left of the traces, closes their files, and
// says on stderr what each holds (unless -q), or why it failed.
func (in *instruments) finish(o *options, stderr io.Writer) {
	say := func(format string, a ...any) {
		if !o.quiet {
			fmt.Fprintf(stderr, "crawl: "+format+"\n", a...)
		}
	}
	if in.jsonl != nil {
		var sum jsonlWriter
		for _, r := range in.loops {
			r.jsonl.flush()
			sum.add(r.jsonl)
		}
		if err := in.jsonl.close(); err != nil {
			fmt.Fprintf(stderr, "crawl: writing %s: %v\n", o.trace, err)
		} else {
			say("trace: %s in %s", sum.summary(), o.trace)
		}
	}
	if in.events != nil {
		summary, err := in.events.close()
		if err != nil {
			fmt.Fprintf(stderr, "crawl: writing %s: %v\n", o.events, err)
		} else {
			say("trace events: %s in %s (open it in speedscope, offline: npx speedscope FILE; or in https://ui.perfetto.dev)", summary, o.events)
		}
	}
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

// jsonlWriter writes one loop's turns as JSON Lines through a buffer of
// its own onto the --trace file, and counts what it wrote. With several
// loops each line starts with the loop's index, "loop"; the times in it
// are on that loop's clock (Loop.Time).
type jsonlWriter struct {
	out   buffered
	loop  []byte // `{"loop":1,` with several loops; nil with one
	turns int
	waits int
	ready int
	ops   map[string]int
}

func newJSONLWriter(f *sharedFile, index int, many bool) *jsonlWriter {
	w := &jsonlWriter{out: buffered{file: f}, ops: make(map[string]int)}
	if many {
		w.loop = []byte(`{"loop":` + strconv.Itoa(index) + ",")
	}
	return w
}

func (t *jsonlWriter) write(it *loop.Iteration) {
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
	if t.loop == nil {
		t.out.buf = it.AppendJSON(t.out.buf)
	} else {
		// The line without its opening brace, after the loop's field.
		t.out.buf = append(t.out.buf, t.loop...)
		at := len(t.out.buf)
		t.out.buf = it.AppendJSON(t.out.buf)
		t.out.buf = append(t.out.buf[:at], t.out.buf[at+1:]...)
	}
	t.out.done()
}

func (t *jsonlWriter) flush() { t.out.flush() }

// add adds another writer's counts to t's.
func (t *jsonlWriter) add(o *jsonlWriter) {
	t.turns += o.turns
	t.waits += o.waits
	t.ready += o.ready
	if t.ops == nil {
		t.ops = make(map[string]int)
	}
	for name, n := range o.ops {
		t.ops[name] += n
	}
}

// summary counts what the trace holds: turns, waits, ready fds, and the
// system calls made through the loops, by name.
func (t *jsonlWriter) summary() string {
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
