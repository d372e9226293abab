package http1_test

import (
	"crypto/tls"
	"net/http"
	"sync/atomic"
	"testing"

	"loopkit/internal/testca"
)

// countingCache is a session cache that counts what crypto/tls asks of it.
type countingCache struct {
	tls.ClientSessionCache
	gets, puts atomic.Int64
}

func (c *countingCache) Get(key string) (*tls.ClientSessionState, bool) {
	c.gets.Add(1)
	return c.ClientSessionCache.Get(key)
}

func (c *countingCache) Put(key string, s *tls.ClientSessionState) {
	c.puts.Add(1)
	c.ClientSessionCache.Put(key, s)
}

// A session cache the caller set is the one the client uses: a session
// cache is added only to a TLS config that has none.
func TestTheCallersSessionCacheIsUsed(t *testing.T) {
	ca := testca.New(t)
	srv := newTLSServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	cache := &countingCache{ClientSessionCache: tls.NewLRUClientSessionCache(4)}
	opts := trusting(ca)
	opts.TLS.ClientSessionCache = cache
	l, c := onLoop(t, opts)
	if r, err := get(t, l, c, srv.URL); err != nil || string(r.Body) != "ok" {
		t.Fatalf("%+v, %v", r, err)
	}
	// The hello looked for a session to resume; the response came after
	// the server's session ticket, which went into the cache.
	if g, p := cache.gets.Load(), cache.puts.Load(); g == 0 || p == 0 {
		t.Fatalf("the caller's cache was asked %d times and given %d sessions, want both > 0", g, p)
	}
}
