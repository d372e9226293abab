package resp_test

import (
	"runtime"
	"testing"

	"loopkit/crawler/resp"
	"loopkit/internal/redistest"
)

// The hot path's allocations, guarded: a change that adds one fails here,
// and says where. (bench_test.go measures the whole round trip.)
func TestParserAllocations(t *testing.T) {
	cases := []struct {
		in   string
		want float64
	}{
		{"+OK\r\n", 0},            // a constant string: no allocation
		{":12345\r\n", 0},         // an integer lives in the Value
		{"$-1\r\n", 0},            // nil
		{"$5\r\nhello\r\n", 1},    // the string
		{"+Some status\r\n", 1},   // the string
		{"*2\r\n:1\r\n:2\r\n", 1}, // the elements
	}
	p := resp.NewParser(resp.Limits{})
	for _, tc := range cases {
		in := []byte(tc.in)
		got := testing.AllocsPerRun(100, func() {
			p.Reset()
			if n, err := p.Feed(in); err != nil || n != len(in) || !p.Done() {
				t.Fatalf("%q: used %d, err %v", in, n, err)
			}
		})
		if got != tc.want {
			t.Errorf("%q: %v allocations per reply, want %v", tc.in, got, tc.want)
		}
	}
}

// A command is written into the connection's buffer without allocating:
// the variadic arguments, numbers among them, stay on the caller's stack.
func TestAppendCommandAllocations(t *testing.T) {
	buf := make([]byte, 0, 256)
	key, n := "pages", 42
	got := testing.AllocsPerRun(100, func() {
		buf, _ = resp.AppendCommand(buf[:0], "INCRBY", key, n)
	})
	if got != 0 {
		t.Errorf("%v allocations per command, want 0", got)
	}
}

// A pipelined round trip to a real server allocates one object on the
// client: the reply's future. Encoding, writing, reading and parsing
// "+PONG" allocate nothing (the buffers are reused, the callbacks made
// once per connection, "PONG" a constant). Measured over a few thousand
// commands, so that buffers growing at the start count for little.
func TestRoundTripAllocations(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	l := newLoop(t)
	c := newClient(t, l, srv.URL(), resp.Options{})
	if err := pipeline(l, c, 1000, 16, "PING"); err != nil { // warm up
		t.Fatal(err)
	}
	const n = 5000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := pipeline(l, c, n, 16, "PING"); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	// The pipeline's own harness (its ring, the finishing future, the
	// loop's RunUntilComplete) adds a handful for all n.
	if per := float64(after.Mallocs-before.Mallocs) / n; per > 1.01 {
		t.Fatalf("%.3f allocations per command, want 1 (the future)", per)
	}
}
