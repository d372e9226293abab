package crawler_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/internal/e2e"
	"loopkit/internal/wirelog"
)

// tokenBucket is a rate limiter as many sites run one: rate requests a
// second on average, bursts of up to burst, and 429 without Retry-After
// for anything more.
type tokenBucket struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	tokens  float64
	last    time.Time
	refused int
	served  int
}

func (b *tokenBucket) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		now := time.Now()
		if b.last.IsZero() {
			b.tokens = b.burst
		} else {
			b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
		}
		b.last = now
		ok := b.tokens >= 1
		if ok {
			b.tokens--
			b.served++
		} else {
			b.refused++
		}
		b.mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Against a rate limiter the crawler slows down until it is rarely
// refused, yet keeps close to the rate the site allows: within 1.5 times
// its duration at that rate, plus the second each refusal holds the whole
// server back (a bare 429 says "too fast" and not for how long: the
// crawler waits at least a second). The limiter runs on the server's
// clock, so on a loaded machine requests that left on time may reach it
// bunched: 10.9 % were refused beside two busy cores, 8.9 % beside other
// tests. Under 20 % still tells a crawler that learns the rate from one
// that does not (pace_test.go pins the pace itself, tick by tick).
func TestPushbackFindsTheRateLimit(t *testing.T) {
	e2e.Only(t, "waits about 12 s on a token-bucket server's refusals")
	t.Parallel() // it mostly waits
	const rate, pages = 5.0, 40
	srv := wirelog.New(t)
	bucket := &tokenBucket{rate: rate, burst: rate}
	base := srv.Host("h", bucket.wrap(wirelog.Fan(pages, nil)))
	c, recs := crawl(t, crawler.Config{Roots: []string{base}, MaxTries: 10, NoRobots: true})
	for p, r := range recs {
		if status(r) != 200 {
			t.Errorf("%s recorded %d", p, status(r))
		}
	}
	arr := srv.Arrivals("h")
	took := arr[len(arr)-1].At.Sub(arr[0].At)
	bucket.mu.Lock()
	defer bucket.mu.Unlock()
	share := float64(bucket.refused) / float64(len(arr))
	t.Logf("%d requests, %d refused (%.1f %%), %d pages in %v (%.2f/s against a limit of %.0f/s), %d slow-downs",
		len(arr), bucket.refused, 100*share, bucket.served, took.Round(time.Millisecond),
		float64(bucket.served)/took.Seconds(), rate, c.Stats().SlowDowns)
	if share >= 0.20 {
		t.Errorf("%.1f %% of requests refused, want under 20 %%", 100*share)
	}
	// At the limit the pages beyond the first burst take (served-burst)/rate.
	ideal := time.Duration(float64(bucket.served-int(rate)) / rate * float64(time.Second))
	if allowed := ideal*3/2 + time.Duration(bucket.refused)*time.Second; took > allowed {
		t.Errorf("took %v, more than 1.5 times the %v the limit allows and a second per refusal (%v)", took, ideal, allowed)
	}
}
