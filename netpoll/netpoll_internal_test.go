package netpoll

import (
	"testing"
	"time"
)

func TestTimeoutMillisRoundsUp(t *testing.T) {
	for _, c := range []struct {
		in   time.Duration
		want int
	}{
		{-1, -1}, {0, 0}, {time.Nanosecond, 1}, {300 * time.Microsecond, 1},
		{time.Millisecond, 1}, {1500 * time.Microsecond, 2}, {time.Second, 1000},
		{1000 * time.Hour, 1<<31 - 1},
	} {
		if got := timeoutMillis(c.in); got != c.want {
			t.Errorf("timeoutMillis(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}
