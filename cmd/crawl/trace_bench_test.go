package main

import (
	"os"
	"testing"

	"loopkit/crawler/timeline"
	"loopkit/loop"
)

// BenchmarkTracedTurn is what each of the crawl's instruments costs per
// turn of a loop, on top of the loop.Stats the crawl always keeps: a turn
// that runs one callback (which schedules itself again), written as a
// JSON line (--trace), as trace events (--trace_events: the turn's slice
// and its callback's), or counted into a timeline's loop lane
// (--timeline). The files go to /dev/null, through the same 64 KiB
// buffers as in a crawl: what the disk takes is the machine's business.
func BenchmarkTracedTurn(b *testing.B) {
	devNull := func(b *testing.B) *sharedFile {
		f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
		return &sharedFile{f: f}
	}
	modes := []struct {
		name  string
		trace func(b *testing.B) func(*loop.Iteration)
	}{
		{"stats", func(*testing.B) func(*loop.Iteration) { return nil }},
		{"trace", func(b *testing.B) func(*loop.Iteration) { return newJSONLWriter(devNull(b), 0, false).write }},
		{"trace_events", func(b *testing.B) func(*loop.Iteration) {
			e := &loopEvents{out: buffered{file: devNull(b)}, pid: 1}
			return func(it *loop.Iteration) { e.write(it, 0) }
		}},
		{"timeline", func(*testing.B) func(*loop.Iteration) { return (&timeline.LoopLane{}).Add }},
	}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			l, err := loop.New(&loop.Options{Stats: true, Trace: m.trace(b)})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			n := 0
			var spin func()
			spin = func() {
				if n++; n >= b.N {
					l.Stop()
					return
				}
				l.CallSoon(spin)
			}
			l.CallSoon(spin)
			b.ReportAllocs()
			b.ResetTimer()
			if err := l.Run(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
