package http1

import (
	"math"
	"net/netip"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// dnsTestLoop returns a new loop, closed when the test ends, and guarded
// by a runtime timer, so that a broken loop fails the test, not hangs it.
func dnsTestLoop(t *testing.T) *loop.Loop {
	t.Helper()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	hung := time.AfterFunc(30*time.Second, func() { t.Error("hung"); l.CallSoonThreadsafe(l.Stop) })
	t.Cleanup(func() { hung.Stop(); l.Close() })
	return l
}

// resolved runs l until lookup succeeds, and one turn more, for the
// cache's own done callback.
func resolved(t *testing.T, l *loop.Loop, lookup *future.Future[[]netip.Addr]) {
	t.Helper()
	if err := l.RunUntilComplete(lookup); err != nil || lookup.Err() != nil {
		t.Fatalf("resolving: %v %v", err, lookup.Err())
	}
	l.CallSoon(l.Stop)
	l.Run()
}

// Lookups of one host merge while pending and are remembered for the TTL;
// after it, the next lookup asks the resolver again.
func TestDNSCacheMergesAndExpires(t *testing.T) {
	l := dnsTestLoop(t)
	d := newDNSCache(l, 50*time.Millisecond)
	first := d.resolve("localhost")
	if second := d.resolve("localhost"); second != first {
		t.Fatal("a second lookup while the first is pending was not merged")
	}
	resolved(t, l, first)
	if again := d.resolve("localhost"); again != first {
		t.Fatal("a lookup within the TTL was not answered from the cache")
	}
	time.Sleep(60 * time.Millisecond)
	if later := d.resolve("localhost"); later == first {
		t.Fatal("a lookup after the TTL was answered from the cache")
	}
	failed := d.resolve("no-such-host.invalid")
	l.RunUntilComplete(failed)
	l.CallSoon(l.Stop)
	l.Run()
	if d.resolve("no-such-host.invalid") == failed {
		t.Fatal("a failed lookup was cached")
	}
}

// The cache goes on sweeping while it holds entries: a name looked up
// half a TTL after another expires half a TTL after the first sweep, and
// is gone after a later one. ("LocalHost" is another name for the cache,
// and the same host for the resolver.) The test looks every TTL, and
// gives up only after forty: a busy machine may resolve slowly, but a
// cache that stopped sweeping keeps the entry for ever.
func TestDNSCacheSweepsUntilEmpty(t *testing.T) {
	t.Parallel()
	l := dnsTestLoop(t)
	const ttl = 50 * time.Millisecond
	d := newDNSCache(l, ttl)
	first := d.resolve("localhost")
	if err := l.RunUntilComplete(first); err != nil || first.Err() != nil {
		t.Fatalf("resolving localhost: %v %v", err, first.Err())
	}
	var second *future.Future[[]netip.Addr]
	l.CallLater(ttl/2, func() { second = d.resolve("LocalHost") })
	giveUp := l.Time() + 40*ttl
	var look func()
	look = func() {
		if second != nil && second.Done() && len(d.entries) == 0 || l.Time() > giveUp {
			l.Stop()
			return
		}
		l.CallLater(ttl, look)
	}
	l.CallLater(ttl, look)
	l.Run()
	if second == nil || second.Err() != nil {
		t.Fatalf("resolving LocalHost: %v", second)
	}
	if n := len(d.entries); n != 0 {
		t.Fatalf("%d entries left forty TTLs later, want none", n)
	}
}

// A TTL too large for the loop's clock keeps an answer for ever, not for
// no time at all (an expiry that wrapped round into the past).
func TestDNSCacheTTLTooLargeForTheClockKeeps(t *testing.T) {
	l := dnsTestLoop(t)
	d := newDNSCache(l, time.Duration(math.MaxInt64))
	defer d.close()
	first := d.resolve("localhost")
	resolved(t, l, first)
	if again := d.resolve("localhost"); again != first {
		t.Fatal("a lookup with a TTL of for ever was asked again")
	}
}

// A closed client leaves no timer of its DNS cache behind: the sweep,
// armed while the cache holds entries, would wake the loop a TTL later
// and keep the client alive until then.
func TestClosedClientStopsTheDNSSweep(t *testing.T) {
	l := dnsTestLoop(t)
	c := NewClient(l, Options{})
	lookup := c.dns.resolve("localhost")
	resolved(t, l, lookup)
	sweep := c.dns.sweep
	if sweep == nil {
		t.Fatal("no sweep armed for a cache with an entry")
	}
	c.Close()
	if sweep.Cancel() {
		t.Fatal("the DNS cache's sweep was still armed after Close")
	}
}

// A failed lookup leaves nothing in the cache: a crawl meets thousands of
// dead host names, and an entry kept for each would never be swept (the
// sweep runs for answers, which expire).
func TestDNSCacheKeepsNothingOfAFailure(t *testing.T) {
	l := dnsTestLoop(t)
	d := newDNSCache(l, time.Minute)
	failed := d.resolve("no-such-host.invalid")
	l.RunUntilComplete(failed)
	l.CallSoon(l.Stop)
	l.Run()
	if failed.Err() == nil {
		t.Fatal("no-such-host.invalid resolved")
	}
	if n := len(d.entries); n != 0 {
		t.Fatalf("%d entries left after a failed lookup, want none", n)
	}
}

// The sweep deletes expired answers, never a lookup still in flight (its
// expiry is not set yet): a resolve of that host meanwhile must join the
// pending lookup, not start a second one. The pending lookup here is a
// future never completed, so the sweep surely finds it in flight.
func TestDNSSweepKeepsALookupInFlight(t *testing.T) {
	t.Parallel()
	l := dnsTestLoop(t)
	const ttl = time.Millisecond
	d := newDNSCache(l, ttl)
	defer d.close()
	const host = "pending.invalid"
	pending := future.New[[]netip.Addr](l)
	e := &dnsEntry{lookup: pending}
	d.entries[host] = e
	d.sweepLater()
	armed := d.sweep
	// Look each TTL until the first sweep has run: it re-arms itself, or
	// leaves none if it emptied the cache; either way d.sweep changes.
	var look func()
	look = func() {
		if d.sweep != armed {
			l.Stop()
			return
		}
		l.CallLater(ttl, look)
	}
	l.CallLater(ttl, look)
	l.Run()
	if d.entries[host] != e {
		t.Fatal("the sweep deleted a lookup still in flight")
	}
	if again := d.resolve(host); again != pending {
		t.Fatal("a resolve during a pending lookup started another")
	}
}

// The sweep comes one TTL after an answer, not later: a check set for a
// TTL after the answer was in, and so due after the sweep, finds the
// entry gone and no sweep left to come.
func TestDNSSweepComesOneTTLAfterTheAnswer(t *testing.T) {
	l := dnsTestLoop(t)
	const ttl = 50 * time.Millisecond
	d := newDNSCache(l, ttl)
	defer d.close()
	resolved(t, l, d.resolve("localhost"))
	entries, swept := -1, false
	l.CallLater(ttl, func() {
		entries, swept = len(d.entries), d.sweep == nil
		l.Stop()
	})
	l.Run()
	if entries != 0 || !swept {
		t.Fatalf("a TTL after the answer: %d entries, sweep done %v; want none left and no sweep armed", entries, swept)
	}
}
