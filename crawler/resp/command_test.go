package resp_test

import (
	"strconv"
	"strings"
	"testing"

	"loopkit/crawler/resp"
)

func TestAppendCommand(t *testing.T) {
	cases := []struct {
		args []any
		want string
	}{
		{[]any{"PING"}, "*1\r\n$4\r\nPING\r\n"},
		{[]any{"SET", "k", "v"}, "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n"},
		{[]any{"SET", "k", ""}, "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n"},
		{[]any{"SET", []byte("a\r\nb"), "\x00"}, "*3\r\n$3\r\nSET\r\n$4\r\na\r\nb\r\n$1\r\n\x00\r\n"},
		{[]any{"EXPIRE", "k", 30}, "*3\r\n$6\r\nEXPIRE\r\n$1\r\nk\r\n$2\r\n30\r\n"},
		{[]any{"INCRBY", "k", int64(-9223372036854775808)}, "*3\r\n$6\r\nINCRBY\r\n$1\r\nk\r\n$20\r\n-9223372036854775808\r\n"},
		{[]any{"X", uint64(18446744073709551615), int32(-1), uint(7), uint32(8)}, "*5\r\n$1\r\nX\r\n$20\r\n18446744073709551615\r\n$2\r\n-1\r\n$1\r\n7\r\n$1\r\n8\r\n"},
		{[]any{"INCRBYFLOAT", "k", 0.1}, "*3\r\n$11\r\nINCRBYFLOAT\r\n$1\r\nk\r\n$3\r\n0.1\r\n"},
		{[]any{"INCRBYFLOAT", "k", 1e21}, "*3\r\n$11\r\nINCRBYFLOAT\r\n$1\r\nk\r\n$5\r\n1e+21\r\n"},
	}
	for _, tc := range cases {
		got, err := resp.AppendCommand([]byte("before"), tc.args...)
		if err != nil || string(got) != "before"+tc.want {
			t.Errorf("%v: %q, %v; want %q", tc.args, got, err, tc.want)
		}
		// What the server reads is what we meant: the command parses
		// back, as an array of bulk strings, to its arguments.
		v := parsePieces(resp.Limits{}, oneRead(tc.want)).v
		if v.Kind != resp.KindArray || len(v.Elems) != len(tc.args) {
			t.Errorf("%v does not parse back as an array of its arguments: %v", tc.args, v)
		}
	}
}

// A bad argument appends nothing and names itself.
func TestAppendCommandRefusesWhatItCannotSend(t *testing.T) {
	for _, args := range [][]any{{}, {"SET", "k", true}, {"SET", "k", nil}, {"HSET", "k", map[string]int{}}} {
		got, err := resp.AppendCommand([]byte("before"), args...)
		if err == nil || string(got) != "before" {
			t.Errorf("%v: %q, %v; want an error and nothing appended", args, got, err)
		}
	}
	_, err := resp.AppendCommand(nil, "SET", "k", true)
	if err == nil || !strings.Contains(err.Error(), "argument 2 of SET is a bool") {
		t.Errorf("the error should say which argument and what it is: %v", err)
	}
}

// A uint32 is unsigned: one past 2^31 is sent as the large positive
// number it is, not wrapped round to a negative one (Redis would then
// store, or expire by, a very different value).
func TestALargeUint32IsSentAsAPositiveNumber(t *testing.T) {
	for _, tc := range []struct {
		n    uint32
		want string
	}{
		{1 << 31, "2147483648"},
		{4294967295, "4294967295"},
	} {
		got, err := resp.AppendCommand(nil, "SET", "k", tc.n)
		want := "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$" + strconv.Itoa(len(tc.want)) + "\r\n" + tc.want + "\r\n"
		if err != nil || string(got) != want {
			t.Errorf("uint32 %d: %q, %v; want %q", tc.n, got, err, want)
		}
	}
}
