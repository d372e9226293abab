package backoff

import "time"

// Backoff is the wait before retry number attempt (from 1): see README.md
// for the rule. rnd returns a number from 0 up to 1 (math/rand/v2's
// Float64, in a crawler).
func Backoff(base time.Duration, attempt int, rnd func() float64) time.Duration {
	// TODO: base doubled attempt-1 times, times a factor from 0.5 up to 1.
	return 0
}
