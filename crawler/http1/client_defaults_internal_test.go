package http1

import (
	"testing"
	"time"
)

// The defaults Options promises in brackets, as a client made with zero
// options (or negative ones, which mean the same) holds them: most are
// timeouts, which a test could otherwise only see by waiting them out.
// HeaderTimeout follows ReadTimeout, the given one too.
func TestOptionsDefaults(t *testing.T) {
	l := dnsTestLoop(t)
	want := Options{
		UserAgent:        "loopkit/0.1 (+https://example.invalid/loopkit)",
		Accept:           "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
		MaxConnsPerHost:  16,
		IdleTimeout:      30 * time.Second,
		ConnectTimeout:   10 * time.Second,
		ReadTimeout:      30 * time.Second,
		HeaderTimeout:    30 * time.Second,
		WriteTimeout:     10 * time.Second,
		PoolTimeout:      30 * time.Second,
		TotalTimeout:     2 * time.Minute,
		Limits:           Limits{MaxHeaderBytes: DefaultMaxHeaderBytes, MaxHeaderFields: DefaultMaxHeaderFields, MaxBodyBytes: DefaultMaxBodyBytes},
		DNSTTL:           time.Minute,
		HandshakeTimeout: 10 * time.Second,
	}
	negative := Options{MaxConnsPerHost: -1, IdleTimeout: -1, ConnectTimeout: -1, ReadTimeout: -1, HeaderTimeout: -1,
		WriteTimeout: -1, PoolTimeout: -1, TotalTimeout: -1, DNSTTL: -1, HandshakeTimeout: -1}
	for name, opts := range map[string]Options{"zero": {}, "negative": negative} {
		c := NewClient(l, opts)
		if c.opts != want {
			t.Errorf("%s options: got\n%+v\nwant\n%+v", name, c.opts, want)
		}
		if c.dns.ttl != want.DNSTTL {
			t.Errorf("%s options: the DNS cache keeps answers %v, want %v", name, c.dns.ttl, want.DNSTTL)
		}
		c.Close()
	}
	c := NewClient(l, Options{ReadTimeout: 5 * time.Second})
	defer c.Close()
	if c.opts.HeaderTimeout != 5*time.Second {
		t.Errorf("with ReadTimeout 5s, HeaderTimeout defaults to %v, want 5s", c.opts.HeaderTimeout)
	}
}
