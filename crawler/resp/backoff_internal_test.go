package resp

import (
	"math"
	"testing"
	"time"
)

// However many failures in a row, the backoff stays between half the cap
// and the cap once it has reached it — also for a cap near the clock's
// end (MaxBackoff: math.MaxInt64, "no cap"), where doubling once more
// would wrap round to a negative wait.
func TestBackoffNeverPassesItsCap(t *testing.T) {
	for _, hi := range []time.Duration{50 * time.Millisecond, time.Hour, math.MaxInt64} {
		c := &Client{opts: Options{MinBackoff: 50 * time.Millisecond, MaxBackoff: hi}.withDefaults()}
		for c.failures = 1; c.failures <= 100; c.failures++ {
			// In floating point, where 2^99 times 50 ms does not wrap.
			full := math.Min(math.Ldexp(float64(50*time.Millisecond), c.failures-1), float64(hi))
			if d := float64(c.backoff()); d < full/2*(1-1e-9) || d > full {
				t.Fatalf("cap %v, %d failures: a wait of %v; want %v to %v",
					hi, c.failures, time.Duration(d), time.Duration(full/2), time.Duration(full))
			}
		}
	}
}
