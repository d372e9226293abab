package resp

import (
	"testing"
	"time"
)

// Options left at zero, or set below it, take the documented defaults —
// written out here, so that a changed default is seen — and a MaxBackoff
// under MinBackoff is raised to it.
func TestOptionDefaultsAreTheDocumentedOnes(t *testing.T) {
	want := Options{
		ConnectTimeout: 5 * time.Second, ReplyTimeout: 5 * time.Second,
		MinBackoff: 50 * time.Millisecond, MaxBackoff: 5 * time.Second,
		Limits: Limits{MaxLineBytes: 64 << 10, MaxBulkBytes: 16 << 20, MaxArrayLen: 1 << 20, MaxDepth: 32, MaxReplyBytes: 64 << 20},
	}
	for _, o := range []Options{{}, {ConnectTimeout: -1, ReplyTimeout: -1, MinBackoff: -1, MaxBackoff: -1}} {
		got := o.withDefaults()
		if got.ConnectTimeout != want.ConnectTimeout || got.ReplyTimeout != want.ReplyTimeout ||
			got.MinBackoff != want.MinBackoff || got.MaxBackoff != want.MaxBackoff || got.Limits != want.Limits {
			t.Errorf("%+v with defaults: %+v; want %+v", o, got, want)
		}
	}
	set := Options{ConnectTimeout: time.Second, ReplyTimeout: 2 * time.Second, MinBackoff: 3 * time.Second, MaxBackoff: time.Second}.withDefaults()
	if set.ConnectTimeout != time.Second || set.ReplyTimeout != 2*time.Second || set.MinBackoff != 3*time.Second || set.MaxBackoff != 3*time.Second {
		t.Errorf("set options, MaxBackoff under MinBackoff: %+v; want them kept, MaxBackoff raised to 3s", set)
	}
}

// The random factor reaches both ends: with a wait of 2ns, half of it
// (1ns) and the whole of it (2ns) both come up.
func TestBackoffJitterReachesTheFullWait(t *testing.T) {
	c := &Client{opts: Options{MinBackoff: 2, MaxBackoff: 2}.withDefaults(), failures: 1}
	seen := map[time.Duration]bool{}
	for range 200 { // the chance that either never comes up is 2^-199
		seen[c.backoff()] = true
	}
	if len(seen) != 2 || !seen[1] || !seen[2] {
		t.Fatalf("waits seen: %v; want 1ns and 2ns", seen)
	}
}
