package crawler

import (
	"os"
	"testing"

	"loopkit/internal/waiting"
)

// TestMain lets more of the package's tests run at once than go test's
// default, one per processor. Most of the slow ones spend their seconds
// waiting, on a Retry-After or a rate limiter, not computing: on two
// processors, two at a time left the package waiting 30 s.
func TestMain(m *testing.M) {
	waiting.Parallel(8)
	os.Exit(m.Run())
}
