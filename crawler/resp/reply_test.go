package resp_test

import (
	"errors"
	"testing"

	"loopkit/crawler/resp"
)

// Each helper against each kind of reply, as its doc says: a reply of the
// kind it reads gives its value, a number in a simple or bulk string is a
// number, a nil reply is ErrNil (never a zero or an empty string), and
// any other kind is ErrWrongKind.
func TestHelpersOnEachKind(t *testing.T) {
	simple := resp.Value{Kind: resp.KindSimple, Str: "7"}
	bulk := resp.Value{Kind: resp.KindBulk, Str: "8"}
	integer := resp.Value{Kind: resp.KindInteger, Int: 9}
	array := resp.Value{Kind: resp.KindArray, Elems: []resp.Value{simple, bulk}}
	null := resp.Value{Kind: resp.KindNil}
	word := resp.Value{Kind: resp.KindBulk, Str: "eight"}

	for _, tc := range []struct {
		v    resp.Value
		want int64
		err  error
	}{{simple, 7, nil}, {bulk, 8, nil}, {integer, 9, nil}, {null, 0, resp.ErrNil}, {array, 0, resp.ErrWrongKind}, {word, 0, resp.ErrWrongKind}} {
		if n, err := resp.Int(tc.v, nil); n != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("Int(%v) = %d, %v; want %d, %v", tc.v, n, err, tc.want, tc.err)
		}
	}
	for _, tc := range []struct {
		v    resp.Value
		want string
		err  error
	}{{simple, "7", nil}, {bulk, "8", nil}, {null, "", resp.ErrNil}, {integer, "", resp.ErrWrongKind}, {array, "", resp.ErrWrongKind}} {
		if s, err := resp.String(tc.v, nil); s != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("String(%v) = %q, %v; want %q, %v", tc.v, s, err, tc.want, tc.err)
		}
	}
	if elems, err := resp.Array(array, nil); err != nil || len(elems) != 2 {
		t.Errorf("Array of an array: %v, %v", elems, err)
	}
	if elems, err := resp.Array(null, nil); elems != nil || !errors.Is(err, resp.ErrNil) {
		t.Errorf("Array of a nil reply: %v, %v; want ErrNil", elems, err)
	}
	if _, err := resp.Array(bulk, nil); !errors.Is(err, resp.ErrWrongKind) {
		t.Errorf("Array of a bulk string: %v, want ErrWrongKind", err)
	}
	if ss, err := resp.Strings(array, nil); err != nil || len(ss) != 2 || ss[0] != "7" || ss[1] != "8" {
		t.Errorf("Strings of simple and bulk strings: %q, %v", ss, err)
	}
	nested := resp.Value{Kind: resp.KindArray, Elems: []resp.Value{bulk, integer}}
	if _, err := resp.Strings(nested, nil); !errors.Is(err, resp.ErrWrongKind) {
		t.Errorf("Strings with an integer element: %v, want ErrWrongKind", err)
	}
	// An error given in is returned as it is, whatever the value.
	given := errors.New("given")
	if _, err := resp.Int(integer, given); err != given {
		t.Errorf("Int with an error given: %v", err)
	}
	if _, err := resp.Strings(array, given); err != given {
		t.Errorf("Strings with an error given: %v", err)
	}
}

// Err gives an error reply inside an array as an *Error, and nil for
// every other kind: a nil element or a string is no error.
func TestValueErr(t *testing.T) {
	var serr *resp.Error
	if err := (resp.Value{Kind: resp.KindError, Str: "BUSY try later"}).Err(); !errors.As(err, &serr) || serr.Code() != "BUSY" {
		t.Errorf("Err of an error reply: %v", err)
	}
	for _, v := range []resp.Value{{Kind: resp.KindNil}, {Kind: resp.KindBulk, Str: "ERR"}, {Kind: resp.KindSimple, Str: "OK"}, {}} {
		if err := v.Err(); err != nil {
			t.Errorf("Err of %v: %v, want nil", v, err)
		}
	}
}
