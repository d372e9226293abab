package fleet

import (
	"slices"
	"strconv"
	"testing"

	"loopkit/crawler/resp"
)

// Creating a crawl that exists changes nothing of it: the first
// process's settings and instance stay, and are what a later process
// finds.
func TestCreatingACrawlThatExistsKeepsTheFirst(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		// withScripts created the crawl with roots a/ and instance "inst"
		got := entries(s.must(create.Run(s.y, s.c, nil, testPrefix, `{"roots":["http://b/"]}`, "other")))
		if !slices.Equal(got, []string{`{"roots":["http://a/"]}`, "inst"}) {
			s.t.Fatalf("a second create answered %q; want the first's settings and instance", got)
		}
		if v := s.must(s.c.Do(s.y, "GET", testPrefix+"instance")); v.Str != "inst" {
			s.t.Fatalf("the crawl's instance is %q after a second create, want the first's", v.Str)
		}
	})
}

// A beat forgets the processes silent for longer than its window, and
// only those: its window, not the lease it renews for (shorter here).
func TestABeatForgetsOnlyTheProcessesSilentForAWindow(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		tm := entries(s.must(s.c.Do(s.y, "TIME")))
		sec, _ := strconv.ParseInt(tm[0], 10, 64)
		now := sec * 1000
		s.must(s.c.Do(s.y, "ZADD", testPrefix+"procs", now-60000, "silent", now-5000, "recent"))
		if got := s.must(s.run(beat, "A", 30000, 1000)); got.Elems[0].Int != 2 {
			s.t.Fatalf("%d alive; want A and the one heard from 5 s ago, with a window of 30 s", got.Elems[0].Int)
		}
	})
}

// stepGroupArgs runs a step with no links and one group for shard 0,
// with its recheck flag and politeness kept given.
func (s *scriptCall) stepGroup(owner string, token int64, recheck int, keep ...any) resp.Value {
	s.t.Helper()
	s.seq++
	args := []any{owner, strconv.Itoa(s.seq), 60000, 0, 0, 0, 1, 0, token, 0, recheck, 0, 0, len(keep) / 3}
	return s.must(s.run(step, append(args, keep...)...))
}

// A step keeps the politeness state it carries with its shard, and
// reads the shard's processing set back only when asked to (a recheck).
func TestAStepKeepsPolitenessAndRechecksOnlyWhenAsked(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(acquire, "A", 60000, 0))
		s.must(s.step("A", []string{"http://a/1"}, 0, 1, 1)) // a/1 taken
		v := s.stepGroup("A", 1, 0, "robots", "http://a", "9 eA==", "hold", "a", "7")
		if held := v.Elems[4].Elems[4]; len(held.Elems) != 0 {
			t.Fatalf("a step with no recheck read the processing set back: %v", held)
		}
		if got := s.must(s.c.Do(s.y, "HGET", testPrefix+"robots:0", "http://a")); got.Str != "9 eA==" {
			t.Fatalf("robots.txt kept with shard 0: %q", got.Str)
		}
		if got := s.must(s.c.Do(s.y, "HGET", testPrefix+"hold:0", "a")); got.Str != "7" {
			t.Fatalf("hold kept with shard 0: %q", got.Str)
		}
		v = s.stepGroup("A", 1, 1)
		if held := entries(v.Elems[4].Elems[4]); !slices.Equal(held, []string{"0 10 http://a/1"}) {
			t.Fatalf("a recheck read back %q, want a/1", held)
		}
		// and the next holder is handed both with the shard
		s.expire(0)
		b := s.must(s.run(acquire, "B", 60000, 0))
		if r, h := entries(b.Elems[3]), entries(b.Elems[4]); !slices.Equal(r, []string{"http://a", "9 eA=="}) || !slices.Equal(h, []string{"a", "7"}) {
			t.Fatalf("B took shard 0 with robots %q and holds %q", r, h)
		}
	})
}

// Each page settled and not taken counts once as settled_not_taken, and
// each link over a cap once as filtered, however many in one step.
func TestEachPageAndLinkIsTalliedOnce(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(acquire, "A", 60000, 0))
		if added, capped, _ := s.rawStep("A", 1, 0, []string{"http://a/1", "http://a/2", "http://a/3"}, 1, 0, nil, ""); added != 1 || capped != 2 {
			t.Fatalf("3 links of a host capped at 1: %d added, %d capped", added, capped)
		}
		s.rawStep("A", 0, 0, nil, 1, 0, []string{"http://x/1", "http://x/2", "http://x/3"}, "ok")
		if tally := s.tally(); tally["filtered:max_pages_per_host"] != "2" || tally["settled_not_taken"] != "3" || tally["ok"] != "" {
			t.Fatalf("tally %v; want 2 filtered, 3 settled not taken, none ok", tally)
		}
	})
}

// A step sent again after its shard's lease was lost answers that the
// lease is lost, with nothing of the shard, and pending as not read
// (-1), never 0, which would end the crawl.
func TestAStepRunAgainAfterItsLeaseWasLostAnswersItLost(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(acquire, "A", 60000, 0))
		s.must(s.stepNumbered(5, "A", []string{"http://a/1"}, 0, 1, 1))
		s.expire(0)
		s.must(s.run(acquire, "B", 60000, 0))
		v := s.must(s.stepNumbered(5, "A", []string{"http://a/1"}, 0, 1, 1))
		if res := v.Elems[4].Elems; v.Elems[0].Int != 1 || v.Elems[3].Int != -1 || res[1].Int != 0 || len(res[4].Elems) != 0 {
			t.Fatalf("the step run again after the lease was lost: %v; want run before, pending -1, the lease lost, nothing held", v)
		}
	})
}

// A step that sends links reads pending back, though none of them was
// new; a step that sends nothing for pending (no link, no page settled)
// does not read it (-1).
func TestAStepWithLinksReadsPendingBack(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(acquire, "A", 60000, 0))
		s.must(s.step("A", []string{"http://a/1"}, 0, 1, 0))
		if v := s.must(s.step("A", []string{"http://a/1"}, 0, 1, 0)); v.Elems[1].Int != 0 || v.Elems[3].Int != 1 {
			t.Fatalf("a step with a link seen before: %v; want nothing new, and pending read back: 1", v)
		}
		if v := s.must(s.step("A", nil, 0, 1, 0)); v.Elems[3].Int != -1 {
			t.Fatalf("a step with neither link nor page settled: %v; want pending not read, -1", v)
		}
	})
}
