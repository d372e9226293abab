package resp

import (
	"errors"
	"fmt"
	"strconv"
)

// The helpers below read a reply of the kind a command is known to give,
// and take Do's two results whole:
//
//	n, err := resp.Int(client.Do(y, "INCR", "pages"))
//	s, err := resp.String(client.Do(y, "GET", "robots:example.com"))
//
// An error passed in is returned as it is; a reply of another kind is an
// ErrWrongKind error; a nil reply is ErrNil, so a missing key is never
// mistaken for an empty string.

// ErrNil is returned by the helpers for a nil reply.
var ErrNil = errors.New("resp: nil reply")

// ErrWrongKind is returned by the helpers for a reply of an unexpected kind.
var ErrWrongKind = errors.New("resp: unexpected kind of reply")

func wrongKind(want string, v Value) error {
	return fmt.Errorf("%w: want %s, got %s", ErrWrongKind, want, v)
}

// Int reads an integer reply, or a string that holds one (GET of a
// counter returns the counter as a bulk string).
func Int(v Value, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	switch v.Kind {
	case KindInteger:
		return v.Int, nil
	case KindBulk, KindSimple:
		n, err := strconv.ParseInt(v.Str, 10, 64)
		if err != nil {
			return 0, wrongKind("an integer", v)
		}
		return n, nil
	case KindNil:
		return 0, ErrNil
	}
	return 0, wrongKind("an integer", v)
}

// String reads a bulk string or a simple string.
func String(v Value, err error) (string, error) {
	if err != nil {
		return "", err
	}
	switch v.Kind {
	case KindBulk, KindSimple:
		return v.Str, nil
	case KindNil:
		return "", ErrNil
	}
	return "", wrongKind("a string", v)
}

// Array reads an array's elements.
func Array(v Value, err error) ([]Value, error) {
	if err != nil {
		return nil, err
	}
	switch v.Kind {
	case KindArray:
		return v.Elems, nil
	case KindNil:
		return nil, ErrNil
	}
	return nil, wrongKind("an array", v)
}

// Strings reads an array of strings. A nil element (MGET of a missing
// key) is an error that matches ErrNil and names its index: read such
// replies with Array.
func Strings(v Value, err error) ([]string, error) {
	elems, err := Array(v, err)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		switch e.Kind {
		case KindBulk, KindSimple:
			out[i] = e.Str
		case KindNil:
			return nil, fmt.Errorf("element %d: %w", i, ErrNil)
		default:
			return nil, fmt.Errorf("element %d: %w", i, wrongKind("a string", e))
		}
	}
	return out, nil
}
