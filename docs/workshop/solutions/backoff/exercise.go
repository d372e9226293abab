//go:build solution

package backoff

import "time"

// Backoff is base × 2^(attempt-1) × (0.5 + 0.5 × rnd()): base for the first
// retry, doubled for each after it, and shortened by up to half at random.
func Backoff(base time.Duration, attempt int, rnd func() float64) time.Duration {
	d := base << (attempt - 1)
	return time.Duration(float64(d) * (0.5 + 0.5*rnd()))
}
