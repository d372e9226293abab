package resp_test

import (
	"fmt"
	"strconv"

	"loopkit/crawler/resp"
)

// parseResult is everything a parse run can tell: the reply, how many
// input bytes the parser used, and the error.
type parseResult struct {
	v    resp.Value
	done bool
	used int
	err  error
}

// parsePieces feeds pieces to a new parser in order, as successive socket
// reads would deliver them, stopping when the reply is done. If the input
// runs out first, it closes the input, as an EOF would.
func parsePieces(lim resp.Limits, pieces [][]byte) parseResult {
	p := resp.NewParser(lim)
	used := 0
	for _, piece := range pieces {
		n, err := p.Feed(piece)
		used += n
		if err != nil {
			return parseResult{used: used, err: err}
		}
		if p.Done() {
			return parseResult{v: p.Reply(), done: true, used: used}
		}
		if n != len(piece) {
			return parseResult{used: used, err: fmt.Errorf("Feed used %d of %d bytes without finishing", n, len(piece))}
		}
	}
	return parseResult{used: used, err: p.CloseInput()}
}

// oneRead is in as a single read.
func oneRead(in string) [][]byte { return [][]byte{[]byte(in)} }

// bytewise is in one byte per read, the worst split there is.
func bytewise(in string) [][]byte {
	pieces := make([][]byte, len(in))
	for i := range len(in) {
		pieces[i] = []byte{in[i]}
	}
	return pieces
}

// splitAt is in as two reads, the first of i bytes.
func splitAt(in string, i int) [][]byte {
	return [][]byte{[]byte(in[:i]), []byte(in[i:])}
}

// encodeValue writes v as a server would: the test's own encoder, so that
// parser tests can build replies of any shape.
func encodeValue(dst []byte, v resp.Value) []byte {
	switch v.Kind {
	case resp.KindSimple:
		return append(append(append(dst, '+'), v.Str...), "\r\n"...)
	case resp.KindError:
		return append(append(append(dst, '-'), v.Str...), "\r\n"...)
	case resp.KindInteger:
		return append(strconv.AppendInt(append(dst, ':'), v.Int, 10), "\r\n"...)
	case resp.KindBulk:
		dst = append(strconv.AppendInt(append(dst, '$'), int64(len(v.Str)), 10), "\r\n"...)
		return append(append(dst, v.Str...), "\r\n"...)
	case resp.KindNil:
		return append(dst, "$-1\r\n"...)
	case resp.KindArray:
		dst = append(strconv.AppendInt(append(dst, '*'), int64(len(v.Elems)), 10), "\r\n"...)
		for _, e := range v.Elems {
			dst = encodeValue(dst, e)
		}
		return dst
	}
	panic("encodeValue: " + v.Kind.String())
}

// Shorthands for expected values.
func simple(s string) resp.Value   { return resp.Value{Kind: resp.KindSimple, Str: s} }
func errReply(s string) resp.Value { return resp.Value{Kind: resp.KindError, Str: s} }
func integer(n int64) resp.Value   { return resp.Value{Kind: resp.KindInteger, Int: n} }
func bulk(s string) resp.Value     { return resp.Value{Kind: resp.KindBulk, Str: s} }
func array(e ...resp.Value) resp.Value {
	if e == nil {
		e = []resp.Value{}
	}
	return resp.Value{Kind: resp.KindArray, Elems: e}
}

var null = resp.Value{Kind: resp.KindNil}
