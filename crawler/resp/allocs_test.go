package resp_test

import (
	"testing"

	"loopkit/crawler/resp"
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
