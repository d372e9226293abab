package fleet

// The fleet's pure parts, tested without a Redis: defaults, shards,
// entries, the window, how errors are judged, and what a lease let go
// counts.

import (
	"errors"
	"hash/fnv"
	"strings"
	"testing"
	"time"

	"loopkit/crawler/resp"
)

// New fills in the defaults its options name: 16 shards, a lease of 3 s,
// a minute to wait for a crawl to be created, and an owner name.
func TestNewDefaults(t *testing.T) {
	f, err := New(Options{CrawlID: "c"})
	if err != nil {
		t.Fatal(err)
	}
	if o := f.opts; o.Shards != 16 || o.Lease != 3*time.Second || o.JoinWait != time.Minute || o.Owner == "" || f.prefix != "loopkit:c:" {
		t.Fatalf("defaults: shards %d, lease %v, join wait %v, owner %q, prefix %q", o.Shards, o.Lease, o.JoinWait, o.Owner, f.prefix)
	}
	// Two fleets of one process (or two processes of one pid, in two
	// containers) must not share an owner name, or each would take the
	// other's leases for its own: the name ends in 16 random bits. Of
	// four, some must differ (all four alike by chance: 1 in 2^48).
	owners := map[string]bool{f.opts.Owner: true}
	for range 3 {
		g, _ := New(Options{CrawlID: "c"})
		owners[g.opts.Owner] = true
	}
	if len(owners) == 1 {
		t.Fatalf("four fleets made in one process all own as %q", f.opts.Owner)
	}
}

// A crawl ID names the crawl's keys ("loopkit:ID:..."): one with a colon
// could make one crawl's keys another's ("a" and "a:q"), and a space or a
// brace would break the keys' form. New refuses each, and takes a plain
// name.
func TestNewRefusesACrawlIDThatCouldCollide(t *testing.T) {
	for _, id := range []string{"", "a:q", "a b", "a\tb", "a\nb", "a{b", "a}b"} {
		if _, err := New(Options{CrawlID: id}); err == nil || !strings.Contains(err.Error(), "CrawlID") {
			t.Errorf("crawl ID %q: %v, want an error naming Options.CrawlID", id, err)
		}
	}
	if _, err := New(Options{CrawlID: "shop-2026.12"}); err != nil {
		t.Fatalf("a plain crawl ID refused: %v", err)
	}
}

// A URL, its origin and its server all name one shard: the host and port,
// whatever the scheme and the path. http and https of a host are one
// server, and so one shard; another port is another server.
func TestAURLsShardIsItsServers(t *testing.T) {
	f, err := New(Options{CrawlID: "c", Shards: 64})
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"example.com", "example.com:8080", "a.b.c:1"} {
		want := f.shardOfHost(host)
		for _, got := range []int{
			f.shardOf("http://" + host + "/"),
			f.shardOf("https://" + host + "/a/b?c=d"),
			f.shardOf("http://" + host),
			f.shardOfOrigin("https://" + host),
		} {
			if got != want {
				t.Fatalf("%s: shard %d, want its server's %d", host, got, want)
			}
		}
	}
	// Different hosts spread: 64 shards, 200 hosts, more than a few used.
	used := map[int]bool{}
	for i := range 200 {
		used[f.shardOfHost("h"+string(rune('a'+i%26))+string(rune('a'+i/26))+".example")] = true
	}
	if len(used) < 32 {
		t.Fatalf("200 hosts fell in %d of 64 shards", len(used))
	}
}

// A queue entry carries its URL's depth and redirects, in that order,
// and a URL with spaces comes back whole.
func TestAnEntryCarriesDepthAndRedirects(t *testing.T) {
	u, depth, redirects, ok := parseEntry(entry("http://a/x y", 3, 7))
	if !ok || u != "http://a/x y" || depth != 3 || redirects != 7 {
		t.Fatalf("got %q, depth %d, redirects %d, ok %v", u, depth, redirects, ok)
	}
	for _, bad := range []string{"", "3 http://a/", "x 7 http://a/", "3 y http://a/"} {
		if _, _, _, ok := parseEntry(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// The window is shared by the shards held: each may have its share
// taken and not settled, and one more, so that a shard is never starved.
func TestTheWindowIsSharedByTheShardsHeld(t *testing.T) {
	f, err := New(Options{CrawlID: "c", Window: 40})
	if err != nil {
		t.Fatal(err)
	}
	if w := f.window(); w != 41 {
		t.Fatalf("no shard held: window %d, want 41", w)
	}
	for shard := range 4 {
		f.held[shard] = &lease{shard: shard}
	}
	if w := f.window(); w != 11 {
		t.Fatalf("4 shards held: window %d, want 11", w)
	}
}

// How the fleet judges Redis's error replies: a transient one (a
// restart loading its data, a script running long, a failover) is
// waited out; any other refusal of a write stops the process; GONE is
// the crawl lost.
func TestJudgeTellsTransientErrorsFromFatalOnes(t *testing.T) {
	for _, code := range []string{"LOADING", "BUSY", "TRYAGAIN", "MASTERDOWN", "CLUSTERDOWN"} {
		f, _ := New(Options{CrawlID: "c"})
		if f.judge(&resp.Error{Msg: code + " try later"}) || f.err != nil {
			t.Errorf("%s stopped the fleet: %v", code, f.err)
		}
	}
	f, _ := New(Options{CrawlID: "c"})
	if !f.judge(&resp.Error{Msg: "OOM command not allowed"}) || f.err == nil || !strings.Contains(f.err.Error(), "OOM") {
		t.Errorf("OOM: stopped %v", f.err)
	}
	f, _ = New(Options{CrawlID: "c"})
	if !f.judge(&resp.Error{Msg: "GONE the crawl is no longer in Redis"}) || !errors.Is(f.err, ErrGone) {
		t.Errorf("GONE: %v, want ErrGone", f.err)
	}
	// Any other refusal stops the process too, with Redis's words: a
	// read-only replica, a script Redis cannot run.
	for _, msg := range []string{"READONLY You can't write against a read only replica.", "ERR Error running script"} {
		f, _ = New(Options{CrawlID: "c"})
		if !f.judge(&resp.Error{Msg: msg}) || f.err == nil || !strings.Contains(f.err.Error(), msg) {
			t.Errorf("%q: stopped %v", msg, f.err)
		}
	}
	f, _ = New(Options{CrawlID: "c"})
	if f.judge(resp.ErrConnectionLost) || f.err != nil {
		t.Errorf("a lost connection stopped the fleet: %v", f.err)
	}
}

// A lease let go with pages settled here and not yet in Redis counts
// them as fenced: their shard's next holder fetches them again.
func TestForgettingALeaseCountsItsUnsentSettlesAsFenced(t *testing.T) {
	f, _ := New(Options{CrawlID: "c"})
	l := &lease{shard: 3, taken: map[string]string{}, settling: map[string]string{}}
	f.held[3] = l
	f.settles[l] = &settles{urls: []string{"http://a/1", "http://a/2"}, kinds: map[string]int{}}
	f.keeps[l] = []any{"robots", "http://a", "..."} // a robots.txt on its way too
	f.forget(l)
	if f.Stats.Fenced != 2 || f.held[3] != nil || f.settles[l] != nil {
		t.Fatalf("fenced %d, held %v, settles %v; want 2 fenced and the lease gone", f.Stats.Fenced, f.held[3], f.settles[l])
	}
	// Nothing of the lease is left to send: a write kept for a lease no
	// longer held would wait for ever, and the crawl would never end.
	if f.unsent() {
		t.Fatalf("after the lease was let go, writes wait to be sent: keeps %v", f.keeps)
	}
}

// A shard being given back is released only once nothing of it is left
// here: not while a page's settle is on its way to Redis.
func TestADrainingLeaseWaitsForItsSettles(t *testing.T) {
	f, _ := New(Options{CrawlID: "c"})
	l := &lease{shard: 1, draining: true, taken: map[string]string{}, settling: map[string]string{"http://a/1": "0 10 http://a/1"}}
	f.held[1] = l
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("maybeRelease tried to release the lease (and, with no client here, panicked: %v)", p)
			}
		}()
		f.maybeRelease(l)
	}()
	if f.held[1] != l {
		t.Fatal("the lease was let go while a settle was on its way")
	}
}

// A URL this process holds already, taken and not settled or settled
// and not yet in Redis, is not offered to the crawler again when a step
// answers with it (a step run again answers with all a shard holds).
// There is no crawler here: offering would panic, and is caught as a
// failure.
func TestAURLHeldAlreadyIsNotOfferedAgain(t *testing.T) {
	f, _ := New(Options{CrawlID: "c"})
	l := &lease{shard: 0, taken: map[string]string{"http://a/1": entry("http://a/1", 0, 10)},
		settling: map[string]string{"http://a/2": entry("http://a/2", 0, 10)}}
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("a URL held already was offered again (and, with no crawler here, panicked: %v)", p)
		}
	}()
	f.adopt(l, entry("http://a/1", 0, 10))
	f.adopt(l, entry("http://a/2", 0, 10))
	if f.Stats.Taken != 0 || len(l.taken) != 1 {
		t.Fatalf("taken %d, held %v: want nothing new", f.Stats.Taken, l.taken)
	}
}

// Settled for a URL this process did not take (its shard's, but not
// offered by the fleet) settles nothing in Redis.
func TestSettlingAURLNotTakenSendsNothing(t *testing.T) {
	f, _ := New(Options{CrawlID: "c"})
	l := &lease{taken: map[string]string{}, settling: map[string]string{}}
	f.held[f.shardOf("http://a/1")] = l
	f.Settled("http://a/1", nil)
	if len(f.settles) != 0 || len(l.settling) != 0 {
		t.Fatalf("settles %v, settling %v: want nothing for a URL not taken", f.settles, l.settling)
	}
}

// The shard hash is FNV-1a of the host and port, as the package says:
// processes of other builds, or of other languages, must put a host in
// the same shard.
func TestTheShardHashIsFNV1a(t *testing.T) {
	for _, host := range []string{"", "a", "example.com", "example.com:8080", "xn--bcher-kva.example:443", "127.0.0.1:65535"} {
		h := fnv.New32a()
		h.Write([]byte(host))
		if got, want := hashString(host), h.Sum32(); got != want {
			t.Errorf("hash of %q: %#x, want FNV-1a's %#x", host, got, want)
		}
	}
}
