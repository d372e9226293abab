package fleet

import (
	"os"
	"testing"

	"loopkit/internal/waiting"
)

// TestMain lets the package's tests run eight at a time, not one per
// processor: each starts its own redis-server and spends its seconds
// waiting on leases and servers, not computing.
func TestMain(m *testing.M) {
	waiting.Parallel(8)
	os.Exit(m.Run())
}
