package fleet

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"loopkit/crawler/resp"
	"loopkit/internal/redistest"
	"loopkit/loop"
	"loopkit/task"
)

// scriptCall runs the fleet's scripts by hand, as one process would, on
// a real Redis.
type scriptCall struct {
	t   *testing.T
	y   task.Yield
	c   *resp.Client
	seq int
}

const testPrefix = "loopkit:t:"

func (s *scriptCall) run(sc *resp.Script, args ...any) (resp.Value, error) {
	return sc.Run(s.y, s.c, nil, append([]any{testPrefix, "inst"}, args...)...)
}

// sleep waits d on the loop: for a lease to expire, or a window to pass.
func (s *scriptCall) sleep(d time.Duration) {
	s.t.Helper()
	if err := task.Sleep(s.y, d); err != nil {
		s.t.Fatal(err)
	}
}

// expire ends shard n's lease at once, as its running out would: the
// tests do not wait on a lease's clock, which a busy machine stretches.
func (s *scriptCall) expire(n int) {
	s.t.Helper()
	s.must(s.c.Do(s.y, "DEL", testPrefix+"lease:"+strconv.Itoa(n)))
}

func (s *scriptCall) must(v resp.Value, err error) resp.Value {
	s.t.Helper()
	if err != nil {
		s.t.Fatal(err)
	}
	return v
}

// stepOf is a step's arguments after the instance: owner, its number,
// no caps, the links (shard, entry, url), then one shard's group.
func (s *scriptCall) step(owner string, links []string, shard int, token int64, take int, settled ...string) (resp.Value, error) {
	s.seq++
	return s.stepNumbered(s.seq, owner, links, shard, token, take, settled...)
}

func (s *scriptCall) stepNumbered(seq int, owner string, links []string, shard int, token int64, take int, settled ...string) (resp.Value, error) {
	args := []any{owner, strconv.Itoa(seq), 60000, 0, 0, len(links)}
	for _, u := range links {
		args = append(args, 0, "0 10 "+u, u)
	}
	args = append(args, 1, shard, token, take, 0, len(settled))
	for _, u := range settled {
		args = append(args, "0 10 "+u)
	}
	args = append(args, 1, "ok", len(settled), 0)
	return s.run(step, args...)
}

func entries(v resp.Value) []string {
	var out []string
	for _, e := range v.Elems {
		out = append(out, e.Str)
	}
	return out
}

func withScripts(t *testing.T, body func(s *scriptCall)) *redistest.Server {
	rds := redistest.Start(t, redistest.Options{})
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := resp.NewClient(l, rds.URL(), resp.Options{Scripts: scripts})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = task.Run(l, func(y task.Yield) (int, error) {
		s := &scriptCall{t: t, y: y, c: c}
		s.must(create.Run(y, c, nil, testPrefix, `{"roots":["http://a/"]}`, "inst"))
		body(s)
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rds
}

// The lease and its fencing token, script by script: a process whose lease
// expired and was taken by another can neither settle nor take anything
// in the shard, nor renew it; the new holder finds what the old one had
// taken back at the front of the queue.
func TestFencingRefusesAProcessThatLostItsLease(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		a := s.must(s.run(acquire, "A", 60000, 0))
		if a.Elems[0].Int != 0 || a.Elems[1].Int != 1 {
			t.Fatalf("A's acquire: %v", a)
		}
		if v := s.must(s.run(acquire, "B", 60000, 0)); v.Kind != resp.KindNil {
			t.Fatalf("B took a held lease: %v", v)
		}
		v := s.must(s.step("A", []string{"http://a/1", "http://a/2"}, 0, 1, 1))
		if got := entries(v.Elems[4].Elems[3]); v.Elems[1].Int != 2 || len(got) != 1 || got[0] != "0 10 http://a/1" {
			t.Fatalf("A's step: %v", v)
		}
		s.expire(0) // A's lease runs out
		b := s.must(s.run(acquire, "B", 10000, 0))
		if b.Elems[1].Int != 2 || b.Elems[2].Int != 1 {
			t.Fatalf("B's acquire: %v, want token 2 and A's one URL back", b)
		}
		v = s.must(s.step("A", nil, 0, 1, 5, "http://a/1"))
		if res := v.Elems[4].Elems; res[1].Int != 0 || res[2].Int != 0 || len(res[3].Elems) != 0 {
			t.Fatalf("A's step after losing the lease: %v, want refused", v)
		}
		if r := s.must(s.run(beat, "A", 1000, 100, 0, 1)); r.Elems[2].Int != 0 {
			t.Fatal("A renewed a lease B holds")
		}
		if n := s.must(s.run(release, "A", 0, 0, 1, 0)); n.Int != 0 {
			t.Fatalf("A, finishing late, released %d leases; want none: B holds shard 0", n.Int)
		}
		if got := s.must(s.c.Do(s.y, "GET", testPrefix+"lease:0")); got.Str != "B 2" {
			t.Fatalf("after A's late release, shard 0's lease is %q; want B's", got.Str)
		}
		v = s.must(s.step("B", nil, 0, 2, 5))
		if got := entries(v.Elems[4].Elems[3]); len(got) != 2 || got[0] != "0 10 http://a/1" {
			t.Fatalf("B took %v, want A's URL first, then the other", got)
		}
	})
}

// A step sent twice (its reply lost, say) runs once: the second time it
// changes nothing and answers with everything the caller holds of the
// shard, the URLs its first reply carried among them.
func TestAStepRunsOnce(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	rds := withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(acquire, "A", 10000, 0))
		s.must(s.step("A", []string{"http://a/1", "http://a/2", "http://a/3"}, 0, 1, 1))
		first := s.must(s.stepNumbered(7, "A", nil, 0, 1, 1, "http://a/1"))
		again := s.must(s.stepNumbered(7, "A", nil, 0, 1, 1, "http://a/1"))
		if first.Elems[0].Int != 0 || again.Elems[0].Int != 1 {
			t.Fatalf("run twice: %v then %v, want the second marked as run before", first, again)
		}
		if got := entries(again.Elems[4].Elems[4]); len(got) != 1 || got[0] != "0 10 http://a/2" {
			t.Fatalf("the step run again answered %v, want what A holds: a/2", got)
		}
	})
	for key, want := range map[string]string{"pending": "2", "tally": "ok\n1\n"} {
		cmd := "GET"
		if key == "tally" {
			cmd = "HGETALL"
		}
		out, err := rds.CLI(cmd, testPrefix+key)
		if err != nil || strings.TrimSpace(out) != strings.TrimSpace(want) {
			t.Errorf("%s: %q, %v; want %q: the step ran twice", key, out, err, want)
		}
	}
}

// A Redis that lost the crawl (restarted empty, its keys deleted) makes
// every script answer GONE, never act on a crawl it does not have.
func TestEveryScriptKnowsItsCrawl(t *testing.T) {
	t.Parallel() // it mostly waits on leases and servers; each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		s.must(s.c.Do(s.y, "DEL", testPrefix+"instance"))
		for name, call := range map[string]func() (resp.Value, error){
			"beat":    func() (resp.Value, error) { return s.run(beat, "A", 1000, 100) },
			"acquire": func() (resp.Value, error) { return s.run(acquire, "A", 100, 0) },
			"step":    func() (resp.Value, error) { return s.step("A", []string{"http://a/9"}, 0, 1, 1) },
			"release": func() (resp.Value, error) { return s.run(release, "A", 1) },
		} {
			var rerr *resp.Error
			if _, err := call(); !errors.As(err, &rerr) || rerr.Code() != "GONE" {
				s.t.Errorf("%s on a crawl Redis lost: %v, want GONE", name, err)
			}
		}
	})
}

// A lease names its holder by its owner name and a space: a process whose
// name begins another's ("a" and "ab") cannot take that one's live lease
// for its own, though a process may take back a lease of its own whose
// acquire's reply it lost.
func TestAnOwnerNameThatBeginsAnotherTakesNoneOfItsLeases(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		if got := s.must(s.run(acquire, "ab", 60000, 0)); got.Kind != resp.KindArray || got.Elems[0].Int != 0 {
			t.Fatalf("ab's acquire of the free shard 0: %v", got)
		}
		if got := s.must(s.run(acquire, "a", 60000, 0)); got.Kind == resp.KindArray {
			t.Fatalf("a took shard 0, whose lease ab holds: %v", got)
		}
		if got := s.must(s.run(acquire, "ab", 60000, 0)); got.Kind != resp.KindArray || got.Elems[0].Int != 0 {
			t.Fatalf("ab could not take back its own lease: %v", got)
		}
	})
}

// A process that finishes leaves the fleet: the processes still beating
// count one fewer alive, and so each takes a bigger share of the shards.
func TestAProcessThatFinishesLeavesTheFleet(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(beat, "A", 60000, 60000))
		if got := s.must(s.run(beat, "B", 60000, 60000)); got.Elems[0].Int != 2 {
			t.Fatalf("two processes beat, and the fleet counts %d alive", got.Elems[0].Int)
		}
		s.must(s.run(release, "A", 1))
		if got := s.must(s.run(beat, "B", 60000, 60000)); got.Elems[0].Int != 1 {
			t.Fatalf("A finished, and the fleet still counts %d alive", got.Elems[0].Int)
		}
	})
}

// What a dead holder had taken goes back to the queue once: the next
// holder finds it there, and the processing set empty of it, so a third
// holder after the second (which took nothing) puts nothing back again.
func TestWhatIsPutBackIsPutBackOnce(t *testing.T) {
	t.Parallel() // it mostly waits on leases; each test has its own Redis
	rds := withScripts(t, func(s *scriptCall) {
		t := s.t
		s.must(s.run(acquire, "A", 60000, 0))
		s.must(s.step("A", []string{"http://a/1", "http://a/2", "http://a/3"}, 0, 1, 2))
		s.expire(0) // A's lease runs out
		if b := s.must(s.run(acquire, "B", 60000, 0)); b.Elems[2].Int != 2 {
			t.Fatalf("B's acquire: %v, want A's 2 URLs put back", b)
		}
		if n := s.must(s.c.Do(s.y, "SCARD", testPrefix+"p:0")); n.Int != 0 {
			t.Fatalf("after the put back, the processing set holds %d, want 0", n.Int)
		}
		s.expire(0) // B's lease runs out, nothing taken
		if c := s.must(s.run(acquire, "C", 10000, 0)); c.Elems[2].Int != 0 {
			t.Fatalf("C's acquire: %v, want nothing put back: B took nothing", c)
		}
	})
	if out, err := rds.CLI("HGET", testPrefix+"tally", "put_back"); err != nil || strings.TrimSpace(out) != "2" {
		t.Fatalf("the tally's put_back is %q (%v), want 2", out, err)
	}
}

// A process that beats stays alive, however long it has beaten: each
// beat moves its last sign of life on. (Counted from its first beat, it
// would be dead a window later, and the others would take its shards.)
func TestABeatingProcessStaysAlive(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		for i := range 5 { // the last beats come more than a window after the first
			if got := s.must(s.run(beat, "A", 300, 60000)); got.Elems[0].Int != 1 {
				t.Fatalf("beat %d, every 100 ms with a window of 300: %d alive, want A", i, got.Elems[0].Int)
			}
			s.sleep(100 * time.Millisecond)
		}
	})
}

// A dead holder's window of more than a thousand URLs (Lua's unpack
// takes them a thousand at a time) goes back to the queue whole.
func TestALargeWindowIsPutBackWhole(t *testing.T) {
	t.Parallel() // it mostly waits on a lease; each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		t := s.t
		var links []string
		for i := range 2500 {
			links = append(links, "http://a/"+strconv.Itoa(i))
		}
		s.must(s.run(acquire, "A", 60000, 0))
		s.must(s.step("A", links, 0, 1, 2500))
		s.expire(0) // A's lease runs out
		if b := s.must(s.run(acquire, "B", 10000, 0)); b.Elems[2].Int != 2500 {
			t.Fatalf("B's acquire: %v, want A's 2500 URLs put back", b)
		}
		if n := s.must(s.c.Do(s.y, "LLEN", testPrefix+"q:0")); n.Int != 2500 {
			t.Fatalf("%d URLs back in the queue, want all 2500", n.Int)
		}
	})
}

// A beat before any link is written reads pending as -1, "not begun",
// never as 0, which would mean nothing is left and end the crawl.
func TestABeatBeforeAnyLinkSaysTheCrawlHasNotBegun(t *testing.T) {
	t.Parallel() // each test has its own Redis
	withScripts(t, func(s *scriptCall) {
		if got := s.must(s.run(beat, "A", 60000, 60000)); got.Elems[1].Int != -1 {
			s.t.Fatalf("a beat on a crawl with nothing written: pending %d, want -1", got.Elems[1].Int)
		}
		s.must(s.step("A", []string{"http://a/1"}, 0, 1, 0))
		if got := s.must(s.run(beat, "A", 60000, 60000)); got.Elems[1].Int != 1 {
			s.t.Fatalf("a beat after one link: pending %d, want 1", got.Elems[1].Int)
		}
	})
}
