package loop_test

import (
	"testing"

	"loopkit/loop"
)

// BenchmarkIteration is the cost of one turn of the loop, unobserved, with
// Options.Stats, and with Options.Trace writing each turn as JSON (to a
// buffer: the file is the trace's reader's cost). Two kinds of turn:
//
//   - busy: one callback that schedules itself again, so every turn runs
//     one callback and a poll happens one turn in nine — the loop's own
//     overhead, where measuring shows most;
//   - io: one writer callback on a socket that is always writable, so every
//     turn is a real wait that returns one ready fd (level-triggered).
//
// Compare "off" with the same benchmark on a commit before the
// instrumentation to see what it costs when unused (docs/kernel.md has the
// numbers of one run).
func BenchmarkIteration(b *testing.B) {
	modes := []struct {
		name string
		opts func() *loop.Options
	}{
		{"off", func() *loop.Options { return nil }},
		{"stats", func() *loop.Options { return &loop.Options{Stats: true} }},
		{"trace", func() *loop.Options {
			var line []byte
			return &loop.Options{Trace: func(it *loop.Iteration) { line = it.AppendJSON(line[:0]) }}
		}},
	}
	for _, m := range modes {
		b.Run("busy/"+m.name, func(b *testing.B) {
			l, err := loop.New(m.opts())
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
		b.Run("io/"+m.name, func(b *testing.B) {
			l, err := loop.New(m.opts())
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			fd, _ := benchSocketPair(b, l)
			n := 0
			b.ReportAllocs()
			b.ResetTimer()
			l.AddWriter(fd, func() {
				if n++; n >= b.N {
					l.RemoveWriter(fd)
					l.Stop()
				}
			})
			if err := l.Run(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// benchSocketPair is socketPair for a benchmark (which has no guard: a
// benchmark that hangs is killed by go test's own -timeout).
func benchSocketPair(b *testing.B, l *loop.Loop) (client, server int) {
	lfd, addr, err := l.Listen(loopback)
	if err != nil {
		b.Fatal(err)
	}
	defer l.SockClose(lfd)
	acc := l.SockAccept(lfd)
	conn := l.SockConnect(addr)
	if err := l.RunUntilComplete(conn); err != nil {
		b.Fatal(err)
	}
	if err := l.RunUntilComplete(acc); err != nil {
		b.Fatal(err)
	}
	c, err := conn.Result()
	if err != nil {
		b.Fatal(err)
	}
	a, err := acc.Result()
	if err != nil {
		b.Fatal(err)
	}
	return c, a.FD
}
