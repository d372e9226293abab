package resp_test

import (
	"errors"
	"reflect"
	"testing"

	"loopkit/crawler/resp"
)

// fuzzLimits are small so that the fuzzer reaches them easily.
var fuzzLimits = resp.Limits{MaxLineBytes: 32, MaxBulkBytes: 64, MaxArrayLen: 8, MaxDepth: 4, MaxReplyBytes: 256}

// cutBy splits in into pieces whose sizes are read from cuts, cycling (a
// zero cut counts as 1). With no cuts the input is one piece.
func cutBy(in, cuts []byte) [][]byte {
	if len(cuts) == 0 {
		return [][]byte{in}
	}
	var pieces [][]byte
	for i := 0; len(in) > 0; i++ {
		n := min(max(int(cuts[i%len(cuts)]), 1), len(in))
		pieces = append(pieces, in[:n])
		in = in[n:]
	}
	return pieces
}

// checkedParse is parsePieces with the parser's invariants asserted after
// every call: never done and failed at once, never more used than given,
// every error a *ParseError of a known kind.
func checkedParse(t *testing.T, lim resp.Limits, pieces [][]byte) parseResult {
	t.Helper()
	p := resp.NewParser(lim)
	check := func(what string, err error) {
		t.Helper()
		if err == nil {
			return
		}
		var perr *resp.ParseError
		if !errors.As(err, &perr) || kindOf(err) == "" {
			t.Fatalf("%s: %v is not a *ParseError of a known kind", what, err)
		}
		if p.Done() || p.Reply().Kind != resp.KindNone {
			t.Fatalf("%s: done, or a reply, together with error %v", what, err)
		}
	}
	used := 0
	for _, piece := range pieces {
		n, err := p.Feed(piece)
		if n < 0 || n > len(piece) {
			t.Fatalf("Feed used %d of %d bytes", n, len(piece))
		}
		used += n
		check("Feed", err)
		if err != nil {
			return parseResult{used: used, err: err}
		}
		if p.Done() {
			return parseResult{v: p.Reply(), done: true, used: used}
		}
		if n != len(piece) {
			t.Fatalf("Feed used %d of %d bytes and is not done", n, len(piece))
		}
	}
	err := p.CloseInput()
	check("CloseInput", err)
	return parseResult{used: used, err: err}
}

// kindOf names the sentinel an error matches, "" for none.
func kindOf(err error) string {
	for _, kind := range []error{resp.ErrProtocol, resp.ErrTooLarge, resp.ErrTruncated} {
		if errors.Is(err, kind) {
			return kind.Error()
		}
	}
	return ""
}

// FuzzParser feeds arbitrary bytes in arbitrary pieces. Besides the
// invariants of checkedParse: the outcome must not depend on the pieces
// (the same reply and bytes used, or the same kind of error, as in one
// read), and a reply, written back out, must parse to itself.
func FuzzParser(f *testing.F) {
	for _, tc := range validCases {
		f.Add([]byte(tc.in+next), []byte{1})
		f.Add([]byte(tc.in), []byte{3, 7})
	}
	for _, tc := range errorCases {
		f.Add([]byte(tc.in), []byte{2})
	}
	f.Add([]byte("*2\r\n$70\r\n"+string(make([]byte, 70))+"\r\n:1\r\n"), []byte{5})
	f.Fuzz(func(t *testing.T, in, cuts []byte) {
		one := checkedParse(t, fuzzLimits, [][]byte{in})
		cut := checkedParse(t, fuzzLimits, cutBy(in, cuts))
		// On an error, how much was used is not comparable: the pieces
		// before the bad one were used whole.
		sameUse := one.err != nil || one.used == cut.used
		if kindOf(one.err) != kindOf(cut.err) || one.done != cut.done || !sameUse || !reflect.DeepEqual(one.v, cut.v) {
			t.Fatalf("outcome depends on the pieces:\none read: %v done %v used %d err %v\n  pieces: %v done %v used %d err %v",
				one.v, one.done, one.used, one.err, cut.v, cut.done, cut.used, cut.err)
		}
		if one.done {
			again := checkedParse(t, resp.Limits{}, [][]byte{encodeValue(nil, one.v)})
			if !again.done || !reflect.DeepEqual(again.v, one.v) {
				t.Fatalf("%v written out parses to %v (%v)", one.v, again.v, again.err)
			}
		}
	})
}

// FuzzRoundTrip builds a reply of any shape from the fuzzer's bytes,
// writes it as a server would, and parses it back in pieces: it must come
// back whole and equal, with every byte used.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{5, 3, 0, 1, 2, 3, 4, 6}, []byte{1})
	f.Add([]byte{5, 2, 5, 0, 3, 200, 'x', 'y'}, []byte{2, 9})
	f.Add([]byte("\x04\x10abcdefghijklmnop"), []byte{})
	f.Fuzz(func(t *testing.T, shape, cuts []byte) {
		v := buildValue(&shape, 0)
		in := encodeValue(nil, v)
		got := checkedParse(t, resp.Limits{}, cutBy(in, cuts))
		if got.err != nil || !got.done || got.used != len(in) || !reflect.DeepEqual(got.v, v) {
			t.Fatalf("%q: got %v (done %v, used %d of %d, err %v), want %v", in, got.v, got.done, got.used, len(in), got.err, v)
		}
	})
}

// buildValue reads a value's shape from the front of *b: a kind byte,
// then what that kind needs. Arrays nest at most 6 deep.
func buildValue(b *[]byte, depth int) resp.Value {
	take := func() byte {
		if len(*b) == 0 {
			return 0
		}
		c := (*b)[0]
		*b = (*b)[1:]
		return c
	}
	text := func(clean bool) string {
		n := int(take()) % 40
		s := make([]byte, 0, n)
		for range n {
			c := take()
			if clean && (c == '\r' || c == '\n') {
				c = ' ' // simple strings and errors cannot hold CR or LF
			}
			s = append(s, c)
		}
		return string(s)
	}
	switch k := take() % 6; {
	case k == 0:
		return simple(text(true))
	case k == 1:
		return errReply(text(true))
	case k == 2:
		n := int64(take())<<56 | int64(take())<<16 | int64(take())
		if take()%2 == 1 {
			n = -n
		}
		return integer(n)
	case k == 3:
		return bulk(text(false))
	case k == 4:
		return null
	case depth == 6:
		return array()
	default:
		n := int(take()) % 5
		elems := make([]resp.Value, n)
		for i := range elems {
			elems[i] = buildValue(b, depth+1)
		}
		return array(elems...)
	}
}
