package http1

import (
	"net/netip"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// dnsCache remembers lookups for a TTL and merges concurrent lookups of one
// host into one. The system resolver does not say how long an answer is
// valid, so the TTL is ours; failures are not cached, so a host that was
// briefly unreachable is tried afresh.
type dnsCache struct {
	loop    *loop.Loop
	ttl     time.Duration
	entries map[string]*dnsEntry
}

type dnsEntry struct {
	lookup  *future.Future[[]netip.Addr]
	expires time.Duration
}

func newDNSCache(l *loop.Loop, ttl time.Duration) *dnsCache {
	return &dnsCache{loop: l, ttl: ttl, entries: make(map[string]*dnsEntry)}
}

func (d *dnsCache) resolve(host string) *future.Future[[]netip.Addr] {
	now := d.loop.Time()
	if e := d.entries[host]; e != nil && (!e.lookup.Done() || now < e.expires) {
		return e.lookup
	}
	e := &dnsEntry{lookup: d.loop.Resolve(host)}
	d.entries[host] = e
	e.lookup.OnDone(func() {
		if e.lookup.Err() != nil {
			if d.entries[host] == e {
				delete(d.entries, host)
			}
			return
		}
		e.expires = d.loop.Time() + d.ttl
	})
	return e.lookup
}
