package resp_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"loopkit/crawler/resp"
	"loopkit/internal/redistest"
)

// A parser reset half-way through a reply (its connection's bytes gone)
// starts the next reply from nothing: the array left open must not take
// the next value in as its element.
func TestAResetHalfWayThroughAnArrayForgetsTheArray(t *testing.T) {
	p := resp.NewParser(resp.Limits{})
	if _, err := p.Feed([]byte("*3\r\n+a\r\n*2\r\n:1\r\n")); err != nil || p.Done() {
		t.Fatalf("the first half of a reply: %v, done %v", err, p.Done())
	}
	p.Reset()
	in := "+OK\r\n"
	if n, err := p.Feed([]byte(in)); err != nil || n != len(in) || !p.Done() {
		t.Fatalf("after the reset: used %d of %d, %v, done %v", n, len(in), err, p.Done())
	}
	if v := p.Reply(); v.Kind != resp.KindSimple || v.Str != "OK" {
		t.Fatalf("after the reset: %v, want OK alone", v)
	}
}

// A line with no CRLF yet that is already two bytes over the limit (more
// than the limit and a CR) is refused as it arrives, not when its LF or
// the end of the connection comes.
func TestAnUnfinishedLineTwoBytesOverTheLimitIsRefusedAtOnce(t *testing.T) {
	p := resp.NewParser(resp.Limits{MaxLineBytes: 8})
	in := "+" + strings.Repeat("x", 10)
	n, err := p.Feed([]byte(in))
	if !errors.Is(err, resp.ErrTooLarge) || n != len(in) {
		t.Fatalf("10 bytes of an unfinished line at a limit of 8: used %d, %v; want ErrTooLarge at once", n, err)
	}
}

// An array length is refused at once when its elements, three bytes each
// at the least, cannot fit the reply limit, even when two bytes each
// would.
func TestAnArrayLengthIsJudgedAtThreeBytesAnElement(t *testing.T) {
	in := "*20\r\n" // 5 + 3*20 = 65 > 64, but 5 + 2*20 = 45 fits
	n, err := resp.NewParser(resp.Limits{MaxReplyBytes: 64}).Feed([]byte(in))
	if !errors.Is(err, resp.ErrTooLarge) || n != len(in) {
		t.Fatalf("%q at a 64-byte limit: used %d, %v; want ErrTooLarge", in, n, err)
	}
}

// Int reads decimal only: "010" is ten, and "0x10" or "1_0" is no number.
func TestIntReadsStringsInDecimalOnly(t *testing.T) {
	if n, err := resp.Int(bulk("010"), nil); n != 10 || err != nil {
		t.Errorf(`Int("010") = %d, %v; want 10`, n, err)
	}
	for _, s := range []string{"0x10", "1_0", "0b1"} {
		if n, err := resp.Int(bulk(s), nil); !errors.Is(err, resp.ErrWrongKind) {
			t.Errorf("Int(%q) = %d, %v; want ErrWrongKind", s, n, err)
		}
	}
}

// A nil element makes Strings fail with ErrNil naming its index, never
// read as an empty string.
func TestStringsRefusesANilElement(t *testing.T) {
	ss, err := resp.Strings(array(bulk("a"), null, bulk("c")), nil)
	if !errors.Is(err, resp.ErrNil) || ss != nil || !strings.Contains(err.Error(), "element 1") {
		t.Fatalf("Strings with a nil element: %q, %v; want ErrNil naming element 1", ss, err)
	}
}

// The errors' texts, prefix and all, and TimeoutError's Timeout.
func TestErrorTextsAndTimeout(t *testing.T) {
	terr := &resp.TimeoutError{Phase: "reply", After: 100 * time.Millisecond}
	if !terr.Timeout() {
		t.Errorf("TimeoutError.Timeout() = false")
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&resp.Error{Msg: "ERR no such thing"}, "redis: ERR no such thing"},
		{terr, "resp: reply timeout after 100ms"},
		{&resp.ParseError{Kind: resp.ErrProtocol, Msg: "bad"}, "resp: bad"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
	_, err := resp.NewParser(resp.Limits{}).Feed([]byte("?"))
	if err == nil || err.Error() != `resp: unknown type byte '?'` {
		t.Errorf("a bad type byte: %v", err)
	}
}

// A command whose arguments cannot be encoded fails alone: it is neither
// counted nor left waiting for a reply, so the command after it gets its
// own reply.
func TestACommandThatCannotBeEncodedTakesNoReply(t *testing.T) {
	_, l, c := withServer(t, redistest.Options{}, resp.Options{ReplyTimeout: 2 * time.Second})
	if _, err := do(t, l, c, "PING"); err != nil {
		t.Fatal(err)
	}
	before := c.Stats().Commands
	bad := c.Send("SET", "k", struct{}{})
	echo := c.Send("ECHO", "mine")
	if _, err := await(t, l, bad); err == nil {
		t.Fatal("SET of a struct: no error")
	}
	if v, err := await(t, l, echo); err != nil || v.Str != "mine" {
		t.Fatalf("the ECHO after it: %v, %v; want its own reply", v, err)
	}
	if n := c.Stats().Commands - before; n != 1 {
		t.Fatalf("%d commands counted; want 1, the ECHO", n)
	}
}

// A command refused after the retry was due but before the loop got to
// it says the next attempt is in 0s, never a negative wait.
func TestARefusedCommandLateForTheRetrySaysZero(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	srv.Stop()
	l := newLoop(t)
	c := newClient(t, l, srv.URL(), resp.Options{MinBackoff: 10 * time.Millisecond, MaxBackoff: 10 * time.Millisecond})
	// A busy loop may start the next attempt before it stops: then the
	// command waits for that attempt, and the test tries again.
	for try := 0; try < 20; try++ {
		if _, err := do(t, l, c, "PING"); !errors.Is(err, resp.ErrNotConnected) {
			t.Fatalf("PING with Redis down: %v", err)
		}
		// The loop is not running: the retry, due within 10ms, cannot start.
		time.Sleep(50 * time.Millisecond)
		f := c.Send("PING")
		if !f.Done() {
			continue
		}
		if _, err := f.Result(); !errors.Is(err, resp.ErrNotConnected) || !strings.Contains(err.Error(), "next attempt in 0s;") {
			t.Fatalf("PING past the retry's time: %v; want the next attempt in 0s", err)
		}
		return
	}
	t.Fatal("the client was never found waiting to retry")
}
