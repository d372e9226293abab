package resp_test

import (
	"strings"
	"testing"

	"loopkit/crawler/resp"
)

// Value.String renders a reply on one line, clipped: a string at 64
// bytes, an array at 8 elements and the count of the rest, nesting at 4
// levels.
func TestValueStringClips(t *testing.T) {
	ints := func(n int) resp.Value {
		v := resp.Value{Kind: resp.KindArray, Elems: []resp.Value{}}
		for i := range n {
			v.Elems = append(v.Elems, resp.Value{Kind: resp.KindInteger, Int: int64(i)})
		}
		return v
	}
	nest := func(depth int) resp.Value {
		v := resp.Value{Kind: resp.KindSimple, Str: "x"}
		for range depth {
			v = resp.Value{Kind: resp.KindArray, Elems: []resp.Value{v}}
		}
		return v
	}
	long := strings.Repeat("a", 70)
	for _, tc := range []struct {
		v    resp.Value
		want string
	}{
		{ints(8), "[(integer) 0, (integer) 1, (integer) 2, (integer) 3, (integer) 4, (integer) 5, (integer) 6, (integer) 7]"},
		{ints(10), "[(integer) 0, (integer) 1, (integer) 2, (integer) 3, (integer) 4, (integer) 5, (integer) 6, (integer) 7, ... 2 more]"},
		{nest(4), "[[[[x]]]]"},
		{nest(5), "[[[[[...]]]]]"},
		{resp.Value{Kind: resp.KindSimple, Str: long}, strings.Repeat("a", 64) + "..."},
		{resp.Value{Kind: resp.KindError, Str: "ERR " + long}, "(error) ERR " + strings.Repeat("a", 60) + "..."},
		{resp.Value{Kind: resp.KindBulk, Str: long}, `"` + strings.Repeat("a", 64) + `"...`},
		{resp.Value{Kind: resp.KindNil}, "(nil)"},
		{resp.Value{}, "(no reply)"},
		{resp.Value{Kind: 42}, "(Kind(42))"},
	} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// Every kind has its name, the last one included; an unknown kind says
// its number.
func TestKindNames(t *testing.T) {
	want := map[resp.Kind]string{resp.KindNone: "no reply", resp.KindSimple: "simple string", resp.KindError: "error",
		resp.KindInteger: "integer", resp.KindBulk: "bulk string", resp.KindArray: "array", resp.KindNil: "nil", 7: "Kind(7)"}
	for k, name := range want {
		if got := k.String(); got != name {
			t.Errorf("Kind %d: %q, want %q", k, got, name)
		}
	}
}
