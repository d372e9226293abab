package http1_test

import (
	"slices"
	"testing"

	"loopkit/crawler/http1"
)

// Header lookups ignore the case of names, keep the order fields came in,
// and tell an empty field from a missing one.
func TestHeaderLookups(t *testing.T) {
	h := http1.Header{{"Set-Cookie", "a=1"}, {"X-Empty", ""}, {"set-cookie", "b=2"}, {"SET-COOKIE", "c=3"}}
	if got := h.Get("SET-cookie"); got != "a=1" {
		t.Errorf("Get: %q, want the first field's value", got)
	}
	if got, want := h.Values("Set-Cookie"), []string{"a=1", "b=2", "c=3"}; !slices.Equal(got, want) {
		t.Errorf("Values: %q, want %q", got, want)
	}
	if got := h.Values("Missing"); got != nil {
		t.Errorf("Values of a missing field: %q, want nil", got)
	}
	if got := h.Get("Missing"); got != "" {
		t.Errorf("Get of a missing field: %q, want \"\"", got)
	}
	if !h.Has("x-empty") || h.Get("x-empty") != "" || h.Has("Missing") {
		t.Errorf("Has: an empty field %v, a missing one %v; want true, false", h.Has("x-empty"), h.Has("Missing"))
	}
}
