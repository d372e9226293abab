package resp_test

import (
	"errors"
	"reflect"
	"strconv"
	"testing"

	"loopkit/crawler/resp"
)

// validCases are well-formed replies of every RESP2 type, with what they
// parse to. next is the start of a pipelined reply that follows: the
// parser must stop before it.
var validCases = []struct {
	name, in string
	want     resp.Value
}{
	{"simple string", "+OK\r\n", simple("OK")},
	{"empty simple string", "+\r\n", simple("")},
	{"QUEUED, as MULTI's commands answer", "+QUEUED\r\n", simple("QUEUED")},
	{"PONG", "+PONG\r\n", simple("PONG")},
	{"simple string not interned", "+Background saving started\r\n", simple("Background saving started")},
	{"error", "-ERR unknown command 'FOO'\r\n", errReply("ERR unknown command 'FOO'")},
	{"zero", ":0\r\n", integer(0)},
	{"negative", ":-1\r\n", integer(-1)},
	{"int64 max", ":9223372036854775807\r\n", integer(9223372036854775807)},
	{"int64 min", ":-9223372036854775808\r\n", integer(-9223372036854775808)},
	{"bulk string", "$5\r\nhello\r\n", bulk("hello")},
	{"empty bulk string", "$0\r\n\r\n", bulk("")},
	{"bulk string holding CRLF", "$4\r\na\r\nb\r\n", bulk("a\r\nb")},
	{"binary bulk string", "$3\r\n\x00\xff\n\r\n", bulk("\x00\xff\n")},
	{"nil bulk string", "$-1\r\n", null},
	{"nil array", "*-1\r\n", null},
	{"empty array", "*0\r\n", array()},
	{"array", "*2\r\n$3\r\nfoo\r\n:42\r\n", array(bulk("foo"), integer(42))},
	{"array of bulk strings", "*3\r\n$3\r\nfoo\r\n$0\r\n\r\n$6\r\nbarbaz\r\n", array(bulk("foo"), bulk(""), bulk("barbaz"))},
	{"array of every kind", "*6\r\n+s\r\n-E e\r\n:7\r\n$1\r\nb\r\n$-1\r\n*-1\r\n",
		array(simple("s"), errReply("E e"), integer(7), bulk("b"), null, null)},
	{"nested arrays", "*3\r\n*1\r\n+x\r\n*0\r\n*2\r\n*1\r\n:1\r\n:2\r\n",
		array(array(simple("x")), array(), array(array(integer(1)), integer(2)))},
	{"array ending in a nested array", "*2\r\n:1\r\n*2\r\n:2\r\n*1\r\n:3\r\n",
		array(integer(1), array(integer(2), array(integer(3))))},
}

const next = "+NEXT\r\n"

// Every valid reply parses to the same value however the socket splits
// it: in one read, a byte per read, or in two reads cut at every place;
// and the parser stops at its end, leaving the next reply alone.
func TestValidRepliesParseTheSameAtEverySplit(t *testing.T) {
	for _, tc := range validCases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in + next
			check := func(how string, pieces [][]byte) {
				t.Helper()
				got := parsePieces(resp.Limits{}, pieces)
				if got.err != nil || !got.done || !reflect.DeepEqual(got.v, tc.want) || got.used != len(tc.in) {
					t.Fatalf("%s: got %v (done %v, used %d of %d, err %v), want %v",
						how, got.v, got.done, got.used, len(tc.in), got.err, tc.want)
				}
			}
			check("one read", oneRead(in))
			check("bytewise", bytewise(in))
			for i := 1; i < len(in); i++ {
				check("split at "+strconv.Itoa(i), splitAt(in, i))
			}
		})
	}
}

// Pipelined replies in one read: Feed stops at the end of each, and after
// Reset the rest is the next. A reply handed out is the caller's: parsing
// the next one must not change it.
func TestPipelinedReplies(t *testing.T) {
	in := []byte("*2\r\n$5\r\nfirst\r\n:1\r\n$6\r\nsecond\r\n+third\r\n")
	p := resp.NewParser(resp.Limits{})
	var got []resp.Value
	for len(in) > 0 {
		n, err := p.Feed(in)
		if err != nil || !p.Done() {
			t.Fatalf("used %d, done %v, err %v", n, p.Done(), err)
		}
		if m, _ := p.Feed(in[n:]); m != 0 {
			t.Fatalf("Feed after Done used %d bytes; it must wait for Reset", m)
		}
		got = append(got, p.Reply())
		p.Reset()
		if p.Done() || p.Started() || p.Reply().Kind != resp.KindNone {
			t.Fatal("Reset left state from the reply before")
		}
		in = in[n:]
	}
	want := []resp.Value{array(bulk("first"), integer(1)), bulk("second"), simple("third")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// An EOF between replies is the normal end of a connection; one inside a
// reply is a truncation, whatever part of it was cut.
func TestCloseInput(t *testing.T) {
	p := resp.NewParser(resp.Limits{})
	if err := p.CloseInput(); err != nil {
		t.Fatalf("EOF before any reply: %v", err)
	}
	for _, in := range []string{"+", "+OK\r", "$5\r\nhel", "$5\r\nhello", "$5\r\nhello\r", "*2\r\n:1\r\n", "*1\r\n*1\r\n"} {
		got := parsePieces(resp.Limits{}, oneRead(in))
		if !errors.Is(got.err, resp.ErrTruncated) {
			t.Errorf("%q then EOF: %v, want ErrTruncated", in, got.err)
		}
	}
	p.Feed([]byte("+OK\r\n"))
	if err := p.CloseInput(); err != nil || !p.Done() {
		t.Fatalf("EOF after a whole reply: %v", err)
	}
}

// Once Feed has failed, the parser keeps failing the same way: a caller
// that misses one error cannot go on reading garbage as replies.
func TestErrorIsSticky(t *testing.T) {
	p := resp.NewParser(resp.Limits{})
	_, err := p.Feed([]byte("?\r\n"))
	if !errors.Is(err, resp.ErrProtocol) {
		t.Fatalf("got %v", err)
	}
	if n, err2 := p.Feed([]byte("+OK\r\n")); n != 0 || err2 != err {
		t.Fatalf("after an error Feed used %d and said %v", n, err2)
	}
	if p.Done() || p.Reply().Kind != resp.KindNone || p.CloseInput() != err {
		t.Fatal("a failed parser must not look done")
	}
}
