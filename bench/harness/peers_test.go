package harness

import (
	"strings"
	"testing"
)

// S9 compares what the site served with its link graph, path by path:
// the exact set, a page missing, a page fetched twice, a path outside.
// Seen failing with duplicates not counted (a path fetched twice passed
// as exact).
func TestComparePathsSaysHowTheSetDiffers(t *testing.T) {
	want := map[string]int64{"/": 2, "/a": 1}
	for _, c := range []struct {
		got  map[string]int64
		want string
	}{
		{map[string]int64{"/": 2, "/a": 1, "/robots.txt": 2}, "exactly the site's 3 URLs, each once"},
		{map[string]int64{"/": 2}, "1 of its 3 missing, 0 fetched more than once, 0 outside"},
		{map[string]int64{"/": 2, "/a": 2}, "0 of its 3 missing, 1 fetched more than once, 0 outside"},
		{map[string]int64{"/": 2, "/a": 1, "/b": 3}, "0 of its 3 missing, 0 fetched more than once, 3 outside"},
	} {
		if got := comparePaths(c.got, want); !strings.Contains(got, c.want) {
			t.Errorf("%v: %q, want %q", c.got, got, c.want)
		}
	}
}
