package fleet

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// rawStep runs a step with caps and one shard group, built by hand:
// links go to shard 0, as "0 10 url" entries.
func (s *scriptCall) rawStep(owner string, pageCap, queryCap int, links []string, token int64, take int, settled []string, kind string) (added, capped int64, res []string) {
	s.t.Helper()
	s.seq++
	args := []any{owner, strconv.Itoa(s.seq), 60000, pageCap, queryCap, len(links)}
	for _, u := range links {
		args = append(args, 0, "0 10 "+u, u)
	}
	args = append(args, 1, 0, token, take, 0, len(settled))
	for _, u := range settled {
		args = append(args, "0 10 "+u)
	}
	if len(settled) > 0 {
		args = append(args, 1, kind, len(settled), 0)
	} else {
		args = append(args, 0, 0)
	}
	v := s.must(s.run(step, args...))
	return v.Elems[1].Int, v.Elems[2].Int, entries(v.Elems[4].Elems[3])
}

func (s *scriptCall) tally() map[string]string {
	s.t.Helper()
	v := s.must(s.c.Do(s.y, "HGETALL", testPrefix+"tally"))
	out := map[string]string{}
	for i := 0; i+1 < len(v.Elems); i += 2 {
		out[v.Elems[i].Str] = v.Elems[i+1].Str
	}
	return out
}

// A host's cap and a path's cap admit exactly their number of URLs, for
// the whole crawl: what is over is seen, not queued, and tallied as
// filtered; a later step finds the count where the first left it.
func TestStepCapsAreExactAndLast(t *testing.T) {
	t.Parallel() // it mostly waits on servers; each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(acquire, "A", 10000, 0))
		// under both caps, nothing is over: nothing is tallied, not even a 0
		if added, capped, _ := s.rawStep("A", 2, 2, []string{"http://z/1", "http://z/p?x=1"}, 1, 0, nil, ""); added != 2 || capped != 0 || len(s.tally()) != 0 {
			t.Fatalf("2 links under both caps: %d added, %d capped, tally %v; want both in, nothing tallied", added, capped, s.tally())
		}
		if added, capped, _ := s.rawStep("A", 2, 0, []string{"http://a/1", "http://a/2", "http://a/3"}, 1, 0, nil, ""); added != 2 || capped != 1 {
			t.Fatalf("3 links of a host capped at 2: %d added, %d capped", added, capped)
		}
		if added, capped, _ := s.rawStep("A", 2, 0, []string{"http://a/4", "http://b/1"}, 1, 0, nil, ""); added != 1 || capped != 1 {
			t.Fatalf("a later step: %d added, %d capped; want b/1 in and a/4 over", added, capped)
		}
		// The path itself, without a query, is not one of its variants.
		if added, capped, _ := s.rawStep("A", 0, 2, []string{"http://c/p", "http://c/p?x=1", "http://c/p?x=2", "http://c/p?x=3", "http://c/q?x=1"}, 1, 0, nil, ""); added != 4 || capped != 1 {
			t.Fatalf("a path, 3 of its queries capped at 2, and one of another: %d added, %d capped; want 4 and 1", added, capped)
		}
		if added, capped, _ := s.rawStep("A", 0, 2, []string{"http://c/p?x=4", "http://c/q?x=2"}, 1, 0, nil, ""); added != 1 || capped != 1 {
			t.Fatalf("a later step: %d added, %d capped; want q's second query in and p's fourth over", added, capped)
		}
		tally := s.tally()
		if tally["filtered:max_pages_per_host"] != "2" || tally["filtered:query_variants"] != "2" {
			t.Fatalf("tally %v", tally)
		}
		if n := s.must(s.c.Do(s.y, "LLEN", testPrefix+"q:0")); n.Int != 10 {
			t.Fatalf("%d URLs queued, want the 10 admitted", n.Int)
		}
	})
}

// Settling a page the caller does not hold (settled before, its reply
// lost) counts it as settled_not_taken, not as its record's kind, and
// takes nothing from pending twice.
func TestSettlingTwiceCountsOnce(t *testing.T) {
	t.Parallel() // it mostly waits on servers; each test has its own Redis
	rds := withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(acquire, "A", 10000, 0))
		if _, _, took := s.rawStep("A", 0, 0, []string{"http://a/1", "http://a/2"}, 1, 1, nil, ""); len(took) != 1 || took[0] != "0 10 http://a/1" {
			t.Fatalf("took %v, want a/1 first", took)
		}
		s.rawStep("A", 0, 0, nil, 1, 0, []string{"http://a/1"}, "ok")
		s.rawStep("A", 0, 0, nil, 1, 0, []string{"http://a/1"}, "ok")
		if tally := s.tally(); tally["ok"] != "1" || tally["settled_not_taken"] != "1" {
			t.Fatalf("tally %v, want ok 1 and settled_not_taken 1", tally)
		}
	})
	if out, err := rds.CLI("GET", testPrefix+"pending"); err != nil || strings.TrimSpace(out) != "1" {
		t.Fatalf("pending %q, %v; want 1 (a/2)", out, err)
	}
}

// Release keeps the later of two holds of a server, gives back what was
// taken, ends the lease, and, leaving, takes the process out of the
// fleet's count.
func TestReleaseKeepsTheLaterHoldAndLeaves(t *testing.T) {
	t.Parallel() // it mostly waits on servers; each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(acquire, "A", 10000, 0))
		s.must(s.run(beat, "A", 60000, 10000, 0, 1))
		s.rawStep("A", 0, 0, []string{"http://a/1", "http://a/2"}, 1, 1, nil, "")
		s.must(s.c.Do(s.y, "HSET", testPrefix+"hold:0", "a", 5000))
		if n := s.must(s.run(release, "A", 1, 0, 1, 2, "a", 1000, "b", 3000)); n.Int != 1 {
			t.Fatalf("release gave back %d leases, want 1", n.Int)
		}
		hold := s.must(s.c.Do(s.y, "HMGET", testPrefix+"hold:0", "a", "b"))
		if hold.Elems[0].Str != "5000" || hold.Elems[1].Str != "3000" {
			t.Fatalf("holds %v, want a's later 5000 kept and b's 3000", hold)
		}
		if v := s.must(s.c.Do(s.y, "EXISTS", testPrefix+"lease:0")); v.Int != 0 {
			t.Fatal("the lease outlived its release")
		}
		if v := s.must(s.c.Do(s.y, "ZCARD", testPrefix+"procs")); v.Int != 0 {
			t.Fatalf("%d processes alive after the only one left", v.Int)
		}
		q := s.must(s.c.Do(s.y, "LRANGE", testPrefix+"q:0", 0, -1))
		if got := entries(q); len(got) != 2 || got[0] != "0 10 http://a/1" {
			t.Fatalf("queue %v after release, want a/1 back at the front", got)
		}
		if tally := s.tally(); tally["given_back"] != "1" {
			t.Fatalf("tally %v, want given_back 1", tally)
		}
	})
}

// A lease lasts as long as its acquire asked, and a beat renews it for
// the lease the beat names (not for its window of life).
func TestALeaseLastsAsLongAsAskedAndABeatRenewsItSo(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		ttl := func() int64 { return s.must(s.c.Do(s.y, "PTTL", testPrefix+"lease:0")).Int }
		s.must(s.run(acquire, "A", 60000, 0))
		if got := ttl(); got <= 50000 || got > 60000 {
			t.Fatalf("a lease acquired for 60 s has %d ms left", got)
		}
		if r := s.must(s.run(beat, "A", 1000, 30000, 0, 1)); r.Elems[2].Int != 1 {
			t.Fatalf("A's beat did not renew its lease: %v", r)
		}
		if got := ttl(); got <= 20000 || got > 30000 {
			t.Fatalf("a lease renewed for 30 s (a window of 1 s) has %d ms left", got)
		}
	})
}

// A link seen before, in an earlier step, is not queued again, nor
// counted pending twice.
func TestALinkSeenBeforeIsNotQueuedAgain(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(acquire, "A", 60000, 0))
		if added, _, _ := s.rawStep("A", 0, 0, []string{"http://a/1", "http://a/2"}, 1, 0, nil, ""); added != 2 {
			t.Fatalf("2 new links: %d added", added)
		}
		if added, _, _ := s.rawStep("A", 0, 0, []string{"http://a/2", "http://a/3"}, 1, 0, nil, ""); added != 1 {
			t.Fatalf("a link seen and a new one: %d added, want 1", added)
		}
		q := entries(s.must(s.c.Do(s.y, "LRANGE", testPrefix+"q:0", 0, -1)))
		pending := s.must(s.c.Do(s.y, "GET", testPrefix+"pending")).Str
		if !slices.Equal(q, []string{"0 10 http://a/1", "0 10 http://a/2", "0 10 http://a/3"}) || pending != "3" {
			t.Fatalf("queue %v, pending %s; want each link once, in the order found", q, pending)
		}
	})
}

// A release of several shards gives back each, with each one's holds,
// and, not leaving, keeps the process in the fleet.
func TestAReleaseGivesBackEveryShardItNames(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(beat, "A", 60000, 60000))
		s.must(s.run(acquire, "A", 60000, 0))
		s.must(s.run(acquire, "A", 60000, 1))
		if n := s.must(s.run(release, "A", 0, 0, 1, 1, "a", 1000, 1, 1, 2, "b", 2000, "c", 3000)); n.Int != 2 {
			t.Fatalf("release gave back %d leases, want 2", n.Int)
		}
		for shard, want := range map[int][]string{0: {"1000", "", ""}, 1: {"", "2000", "3000"}} {
			hold := entries(s.must(s.c.Do(s.y, "HMGET", testPrefix+"hold:"+strconv.Itoa(shard), "a", "b", "c")))
			if !slices.Equal(hold, want) {
				t.Fatalf("shard %d's holds %q, want %q", shard, hold, want)
			}
		}
		if v := s.must(s.c.Do(s.y, "EXISTS", testPrefix+"lease:0", testPrefix+"lease:1")); v.Int != 0 {
			t.Fatalf("%d leases outlived their release", v.Int)
		}
		if v := s.must(s.c.Do(s.y, "ZCARD", testPrefix+"procs")); v.Int != 1 {
			t.Fatalf("%d processes alive; want A still: it gave back shards, it did not leave", v.Int)
		}
	})
}
