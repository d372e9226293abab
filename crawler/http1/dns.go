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
// briefly unreachable is tried afresh. Expired entries are deleted by one
// loop timer, set while the cache holds any: a crawler resolves thousands
// of hosts once each, and their entries must not outlive their use.
type dnsCache struct {
	loop    *loop.Loop
	ttl     time.Duration
	entries map[string]*dnsEntry
	sweep   *loop.Timer // pending while there are entries
}

type dnsEntry struct {
	lookup  *future.Future[[]netip.Addr]
	expires time.Duration
}

func newDNSCache(l *loop.Loop, ttl time.Duration) *dnsCache {
	return &dnsCache{loop: l, ttl: ttl, entries: make(map[string]*dnsEntry)}
}

func (d *dnsCache) resolve(host string) *future.Future[[]netip.Addr] {
	if _, err := netip.ParseAddr(host); err == nil {
		return d.loop.Resolve(host) // an address: nothing to look up, nothing to remember
	}
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
		e.expires = after(d.loop.Time(), d.ttl)
		d.sweepLater()
	})
	return e.lookup
}

// sweepLater deletes, one TTL from now, the entries expired by then, and
// sets itself again while entries remain.
func (d *dnsCache) sweepLater() {
	if d.sweep != nil {
		return
	}
	d.sweep = d.loop.CallLater(d.ttl, func() {
		d.sweep = nil
		now := d.loop.Time()
		for host, e := range d.entries {
			if e.lookup.Done() && now >= e.expires {
				delete(d.entries, host)
			}
		}
		if len(d.entries) > 0 {
			d.sweepLater()
		}
	})
}

// close stops the sweeping timer.
func (d *dnsCache) close() {
	if d.sweep != nil {
		d.sweep.Cancel()
		d.sweep = nil
	}
}
