package fleet

// What a process does with the answers it gets, tested without a Redis:
// the answers are made by hand, as Redis would give them.

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/resp"
)

func integer(n int64) resp.Value { return resp.Value{Kind: resp.KindInteger, Int: n} }

func array(vs ...resp.Value) resp.Value { return resp.Value{Kind: resp.KindArray, Elems: vs} }

// stepReply is a step's answer for one shard: links new and over a cap,
// pending -1, and the lease held, with the entries taken.
func stepReply(shard int, added, capped int64, taken ...string) []resp.Value {
	var es []resp.Value
	for _, e := range taken {
		es = append(es, resp.Value{Kind: resp.KindBulk, Str: e})
	}
	return []resp.Value{integer(0), integer(added), integer(capped), integer(-1),
		array(integer(int64(shard)), integer(1), integer(0), array(es...), array())}
}

// heard is a fleet's notices, as its operator would read them.
type heard struct{ said []string }

func (h *heard) notice(s string) { h.said = append(h.said, s) }

func (h *heard) count(part string) int {
	n := 0
	for _, s := range h.said {
		if strings.Contains(s, part) {
			n++
		}
	}
	return n
}

// A take that came back full says the shard's queue may hold more: the
// next step takes again at once, though the shard has less room than
// half a window, rather than wait for the next beat. A take that came
// back short says the queue is empty: the next step takes nothing.
func TestAFullTakeTakesAgainAtOnce(t *testing.T) {
	for _, full := range []bool{true, false} {
		f, _, _ := newOffline(t)
		f.opts.Window = 10 // a window of 11 for the one shard
		lse := &lease{shard: 3, taken: map[string]string{}, settling: map[string]string{}}
		f.held[3] = lse
		asked := 7
		if !full {
			asked = 8
		}
		var taken []string
		for i := range 7 {
			taken = append(taken, entry(fmt.Sprintf("http://a.test/%d", i), 1, 0))
		}
		f.apply(&stepRun{groups: []stepGroup{{l: lse, take: asked}}}, stepReply(3, 0, 0, taken...))
		if len(lse.taken) != 7 || f.Stats.Taken != 7 {
			t.Fatalf("took %d (Stats.Taken %d), want the 7 answered", len(lse.taken), f.Stats.Taken)
		}
		take := 0
		if run := f.build(); run != nil && len(run.groups) == 1 {
			take = run.groups[0].take
		}
		switch {
		case full && take != 4:
			t.Fatalf("7 asked, 7 taken: the next step takes %d, want the window's room, 4", take)
		case !full && take != 0:
			t.Fatalf("8 asked, 7 taken: the queue is empty, and the next step takes %d, want 0", take)
		}
	}
}

// A beat makes every shard held look at its queue again at the next
// step, whatever its room, and that step goes at the end of the turn:
// another process may have queued links there since the last take came
// back short.
func TestABeatLooksAtEveryQueueAgain(t *testing.T) {
	f, _, l := newOffline(t)
	f.acquiring = true // no acquire goes out: there is no Redis here
	f.opts.Window = 10
	lse := &lease{shard: 3, taken: map[string]string{}, settling: map[string]string{}}
	f.held[3] = lse
	for i := range 7 {
		lse.taken[fmt.Sprint(i)] = ""
	}
	if run := f.build(); run != nil {
		t.Fatalf("a shard with room for 4 of 11, not hungry, sent a step: %v", run.args)
	}
	f.beaten([]*lease{lse}, l.Time(), []resp.Value{integer(1), integer(5), integer(1)})
	if !f.scheduled {
		t.Fatal("after a beat, no step is on its way at the end of the turn: the takes wait for the next beat")
	}
	run := f.build()
	if run == nil || len(run.groups) != 1 || run.groups[0].take != 4 {
		t.Fatalf("after a beat, the next step is %+v; want it to take the shard's room, 4", run)
	}
}

// A step answered in a shape the step does not know (another version of
// the scripts, a proxy that mangles replies) stops the crawl with an
// error that says so: the process cannot tell what Redis did.
func TestAStepAnsweredInAnotherShapeStopsTheCrawl(t *testing.T) {
	f, _, _ := newOffline(t)
	lse := &lease{shard: 3, taken: map[string]string{}, settling: map[string]string{}}
	f.held[3] = lse
	f.apply(&stepRun{groups: []stepGroup{{l: lse}}}, stepReply(3, 0, 0)[:4])
	if f.err == nil || !strings.Contains(f.err.Error(), "answered a step with 4 values, want 5") || !f.ended {
		t.Fatalf("error %v, ended %v: want the crawl stopped on a step's answer of the wrong shape", f.err, f.ended)
	}
}

// The links a step found new, and those over a host's or a query's share,
// are counted for the report; the first links over a share are said to
// the operator, once, naming the settings.
func TestLinksNewAndOverAShareAreCountedAndSaid(t *testing.T) {
	var h heard
	f, _, _ := offlineWith(t, Options{CrawlID: "c", Notice: h.notice}, crawler.Config{NoRobots: true, MaxPagesPerHost: 7})
	f.apply(&stepRun{}, stepReply(0, 5, 0)[:4])
	if f.Stats.New != 5 || f.Stats.Capped != 0 || len(h.said) != 0 {
		t.Fatalf("new %d, capped %d, said %q: want 5 new, none over a share, nothing said", f.Stats.New, f.Stats.Capped, h.said)
	}
	f.apply(&stepRun{}, stepReply(0, 2, 3)[:4])
	f.apply(&stepRun{}, stepReply(0, 0, 1)[:4])
	if f.Stats.New != 7 || f.Stats.Capped != 4 {
		t.Fatalf("new %d, capped %d: want 7 and 4", f.Stats.New, f.Stats.Capped)
	}
	if h.count("MaxPagesPerHost") != 1 || len(h.said) != 1 {
		t.Fatalf("said %q; want one notice naming MaxPagesPerHost", h.said)
	}
}

// A shard dropped (its lease lost) is given up here at once: its queued
// URLs are forgotten, for its next holder to fetch, and another shard's
// stay. The operator hears which shard paused, and why.
func TestADroppedShardsURLsAreForgottenHere(t *testing.T) {
	var h heard
	f, c, _ := offlineWith(t, Options{CrawlID: "c", Notice: h.notice}, crawler.Config{NoRobots: true})
	a := f.shardOf("http://a.test/")
	other := "b.test"
	for i := 0; f.shardOfHost(other) == a; i++ {
		other = fmt.Sprintf("b%d.test", i)
	}
	lost := &lease{shard: a, taken: map[string]string{}, settling: map[string]string{}}
	kept := &lease{shard: f.shardOfHost(other), taken: map[string]string{}, settling: map[string]string{}}
	f.held[lost.shard], f.held[kept.shard] = lost, kept
	f.adopt(lost, entry("http://a.test/x", 1, 0))
	f.adopt(lost, entry("http://a.test/y", 1, 0))
	f.adopt(kept, entry("http://"+other+"/z", 1, 0))
	if c.Todo() != 3 {
		t.Fatalf("%d to do, want the 3 offered", c.Todo())
	}
	f.drop(lost, "another process holds its lease")
	if c.Todo() != 1 || f.held[lost.shard] != nil || f.held[kept.shard] != kept || f.Stats.LostLease != 1 {
		t.Fatalf("after the drop: %d to do (want 1, the other shard's), lost shard held %v, lost leases %d",
			c.Todo(), f.held[lost.shard] != nil, f.Stats.LostLease)
	}
	if want := fmt.Sprintf("shard %d paused here: another process holds its lease", a); h.count(want) != 1 {
		t.Fatalf("said %q, want %q", h.said, want)
	}
}

// A process told to stop (Ctrl-C, its page budget spent) takes no more
// shards: what it would take, it could not work.
func TestAStoppingProcessTakesNoShard(t *testing.T) {
	f, c, _ := newOffline(t)
	c.Interrupt()
	f.live = 1
	f.share() // with no Redis here, an acquire would fail the test, not just send
	if f.acquiring || len(f.held) != 0 {
		t.Fatalf("a stopping process went for a shard: acquiring %v, held %d", f.acquiring, len(f.held))
	}
}

// The crawl ends here only when nothing of this process's is on its way
// to Redis: a link found but not yet sent may be the crawl's last page.
func TestTheCrawlDoesNotEndWithALinkNotYetSent(t *testing.T) {
	f, _, _ := newOffline(t)
	f.acquiring = true // no acquire goes out: there is no Redis here
	f.Found("http://a.test/last", 1, 0)
	f.beaten(nil, 0, []resp.Value{integer(1), integer(0)})
	if f.ended {
		t.Fatal("Redis said nothing was pending, and the crawl ended with a link not yet sent")
	}
	f.found = nil // as once a step took it, and found the page new
	f.beaten(nil, 0, []resp.Value{integer(1), integer(0)})
	if !f.ended {
		t.Fatal("nothing pending anywhere nor here, and the crawl did not end")
	}
}

// The first reason the fleet stopped the crawl is the one Finish gives:
// what followed from it does not replace it.
func TestTheFirstReasonToStopIsTheOneGiven(t *testing.T) {
	f, _, _ := newOffline(t)
	first, then := errors.New("first"), errors.New("then")
	f.fail(first)
	f.fail(then)
	if f.err != first || !f.ended {
		t.Fatalf("error %v, ended %v: want the first, and the crawl ended", f.err, f.ended)
	}
}

// Redis lost is said once, however many reconnects fail, and its return
// once; on the return, every shard held is read back at the next step,
// and that step is on its way at the end of the turn, not at the next
// beat.
func TestRedisLostAndBackIsSaidOnceAndTheStepGoes(t *testing.T) {
	var h heard
	f, _, _ := offlineWith(t, Options{CrawlID: "c", Notice: h.notice}, crawler.Config{NoRobots: true})
	lse := &lease{shard: 3, taken: map[string]string{}, settling: map[string]string{}}
	f.held[3] = lse
	down := errors.New("connection refused")
	for range 3 {
		f.connEvent(resp.ConnEvent{Err: down})
	}
	f.connEvent(resp.ConnEvent{Up: true})
	if got := h.count("Redis lost"); got != 1 {
		t.Fatalf("said %q: Redis lost %d times, want once", h.said, got)
	}
	if got := h.count("Redis is back"); got != 1 {
		t.Fatalf("said %q: back %d times, want once", h.said, got)
	}
	if !lse.recheck || !f.scheduled {
		t.Fatalf("after the return: recheck %v, a step scheduled %v; want both", lse.recheck, f.scheduled)
	}
	f.connEvent(resp.ConnEvent{Up: true})
	if got := h.count("Redis is back"); got != 1 {
		t.Fatalf("said %q: a second connection, never lost, said it was back", h.said)
	}
}

// A step's answer for a shard let go while the step was on its way (its
// lease lost, or given back) offers none of its URLs: they are the next
// holder's, and fetched here they would reach the host from two
// processes.
func TestAnAnswerForAShardLetGoMeanwhileOffersNothing(t *testing.T) {
	f, c, _ := newOffline(t)
	old := &lease{shard: 3, token: 1, taken: map[string]string{}, settling: map[string]string{}}
	f.held[3] = old
	run := &stepRun{groups: []stepGroup{{l: old, take: 2}}}
	f.forget(old)
	f.held[3] = &lease{shard: 3, token: 2, taken: map[string]string{}, settling: map[string]string{}} // taken again since, with another token
	f.apply(run, stepReply(3, 0, 0, entry("http://a.test/1", 1, 0), entry("http://a.test/2", 1, 0)))
	if c.Todo() != 0 || f.Stats.Taken != 0 || len(f.held[3].taken) != 0 {
		t.Fatalf("%d to do, %d taken: want nothing offered from an answer for a lease let go", c.Todo(), f.Stats.Taken)
	}
}

// A step sent again (its reply lost) is answered "run before", with no
// count of pages settled: they were settled the first time. The pages it
// carried are counted settled all the same, once, and are no longer
// waiting to be.
func TestAStepRunBeforeCountsItsPagesSettled(t *testing.T) {
	f, _, _ := newOffline(t)
	lse := &lease{shard: 3, taken: map[string]string{}, settling: map[string]string{"http://a.test/1": "e1", "http://a.test/2": "e2"}}
	f.held[3] = lse
	run := &stepRun{groups: []stepGroup{{l: lse, settled: []string{"http://a.test/1", "http://a.test/2"}}}}
	reply := stepReply(3, 0, 0)
	reply[0] = integer(1) // run before: Redis counts nothing settled now
	f.apply(run, reply)
	if f.Stats.Settled != 2 || len(lse.settling) != 0 {
		t.Fatalf("settled %d, still settling %d: want the step's 2 pages counted settled", f.Stats.Settled, len(lse.settling))
	}
}

// A beat reads how many processes are alive, renews the leases Redis
// says are still this process's (each may send until three quarters of
// a lease after the beat was asked), and drops the one Redis says is
// another's, at once.
func TestABeatRenewsTheLeasesKeptAndDropsTheOneLost(t *testing.T) {
	f, _, l := offlineWith(t, Options{CrawlID: "c", Lease: 4 * time.Second}, crawler.Config{NoRobots: true})
	f.acquiring = true // no acquire goes out: there is no Redis here
	kept := &lease{shard: 1, taken: map[string]string{}, settling: map[string]string{}}
	lost := &lease{shard: 2, taken: map[string]string{}, settling: map[string]string{}}
	f.held[1], f.held[2] = kept, lost
	asked := l.Time() + time.Second
	f.beaten([]*lease{kept, lost}, asked, []resp.Value{integer(3), integer(5), integer(1), integer(0)})
	if f.live != 3 || f.held[1] != kept || f.held[2] != nil || f.Stats.LostLease != 1 {
		t.Fatalf("live %d, held %v, lost leases %d: want 3 alive, shard 1 kept, shard 2 dropped", f.live, f.held, f.Stats.LostLease)
	}
	if want := asked + 3*time.Second; kept.sendBy != want {
		t.Fatalf("renewed by a beat asked at %v, the lease may send until %v; want %v", asked, kept.sendBy, want)
	}
}

// A beat's answer that comes after the process finished or stopped, or
// of another shape than asked, changes nothing: no lease dropped, no
// count of processes taken.
func TestABeatAnsweredLateOrAskewChangesNothing(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(f *Fleet)
		reply []resp.Value
	}{
		{"finished", func(f *Fleet) { f.finished = true }, []resp.Value{integer(3), integer(5), integer(0)}},
		{"stopped", func(f *Fleet) { f.err = errors.New("stopped") }, []resp.Value{integer(3), integer(5), integer(0)}},
		{"short", func(*Fleet) {}, []resp.Value{integer(3), integer(5)}},
	} {
		f, _, _ := newOffline(t)
		f.acquiring = true // no acquire goes out: there is no Redis here
		lse := &lease{shard: 1, taken: map[string]string{}, settling: map[string]string{}}
		f.held[1] = lse
		c.setup(f)
		f.beaten([]*lease{lse}, 0, c.reply)
		if f.held[1] != lse || f.live != 0 || f.Stats.LostLease != 0 {
			t.Fatalf("%s: held %v, live %d, lost %d: want nothing changed", c.name, f.held[1], f.live, f.Stats.LostLease)
		}
	}
}

// A heartbeat after Finish, or after the fleet stopped the crawl, sends
// nothing and plans no next beat. (There is no Redis here: a beat sent
// would panic.)
func TestNoHeartbeatAfterTheEnd(t *testing.T) {
	for _, finished := range []bool{true, false} {
		f, _, _ := newOffline(t)
		if finished {
			f.finished = true
		} else {
			f.err = errors.New("stopped")
		}
		f.heartbeat()
		if f.tick != nil {
			t.Fatalf("finished %v: a heartbeat after the end planned another", finished)
		}
	}
}

// A process holding more than its share, ⌈shards / processes alive⌉,
// gives back the shards beyond it, the last ones; 5 shards and 2
// processes make a share of 3.
func TestAProcessGivesBackWhatIsBeyondItsShare(t *testing.T) {
	f, _, _ := offlineWith(t, Options{CrawlID: "c", Shards: 5}, crawler.Config{NoRobots: true})
	for shard := range 5 {
		// a URL taken and not settled in each: a shard given back is not
		// released yet (there is no Redis here to release it to)
		f.held[shard] = &lease{shard: shard, taken: map[string]string{"u": "0 0 u"}, settling: map[string]string{}}
	}
	f.live = 2
	f.share()
	var draining []int
	for _, l := range f.leases() {
		if l.draining {
			draining = append(draining, l.shard)
		}
	}
	if !slices.Equal(draining, []int{3, 4}) || f.acquiring {
		t.Fatalf("draining %v, acquiring %v; want shards 3 and 4 given back, nothing asked for", draining, f.acquiring)
	}
}

// A process that wants more shards but holds every one (some being given
// back) asks Redis for none. (There is no Redis here: an acquire sent
// would panic.)
func TestAProcessHoldingEveryShardAsksForNone(t *testing.T) {
	f, _, _ := offlineWith(t, Options{CrawlID: "c", Shards: 3}, crawler.Config{NoRobots: true})
	for shard := range 3 {
		f.held[shard] = &lease{shard: shard, draining: shard == 2, taken: map[string]string{"u": "0 0 u"}, settling: map[string]string{}}
	}
	f.live = 1
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("an acquire went out with no shard free (and, with no Redis here, panicked: %v)", p)
			}
		}()
		f.share()
	}()
	if f.acquiring {
		t.Fatal("acquiring, with every shard held")
	}
}

// A process that holds its share exactly asks for no more, though shards
// are free: they are the other processes' share. (There is no Redis
// here: an acquire sent would panic.)
func TestAProcessHoldingItsShareAsksForNoMore(t *testing.T) {
	f, _, _ := offlineWith(t, Options{CrawlID: "c", Shards: 4}, crawler.Config{NoRobots: true})
	for shard := range 2 {
		f.held[shard] = &lease{shard: shard, taken: map[string]string{}, settling: map[string]string{}}
	}
	f.live = 2
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("an acquire went out beyond the process's share (and, with no Redis here, panicked: %v)", p)
			}
		}()
		f.share()
	}()
	if f.acquiring || len(f.held) != 2 {
		t.Fatalf("acquiring %v, held %d: want the share of 2 kept as it is", f.acquiring, len(f.held))
	}
}

// A process that finished, or was told to stop, takes no more URLs: a
// step that still goes (its links, its settles) asks for none, though a
// shard held is hungry and has room; what it would take, it could not
// fetch.
func TestAProcessFinishingOrStoppingTakesNothingMore(t *testing.T) {
	for _, why := range []string{"finished", "stopping"} {
		f, c, _ := newOffline(t)
		lse := &lease{shard: 3, hungry: true, taken: map[string]string{}, settling: map[string]string{}}
		f.held[3] = lse
		f.opts.Window = 8
		if why == "finished" {
			f.finished = true
		} else {
			c.Interrupt()
		}
		f.Found("http://a.test/found", 1, 0) // a step goes: it has a link to write
		run := f.build()
		if run == nil {
			t.Fatalf("%s: no step built for a link found", why)
		}
		for _, g := range run.groups {
			if g.take != 0 {
				t.Fatalf("%s: the step takes %d for shard %d, want none", why, g.take, g.l.shard)
			}
		}
	}
}

// A shard with room for exactly half its window takes, hungry or not;
// one with room for less waits for a beat or a full take.
func TestAShardWithRoomForHalfAWindowTakes(t *testing.T) {
	f, _, _ := newOffline(t)
	f.opts.Window = 9 // a window of 10 for the one shard: half is 5
	lse := &lease{shard: 3, taken: map[string]string{}, settling: map[string]string{}}
	f.held[3] = lse
	for i := range 5 {
		lse.taken[fmt.Sprint(i)] = ""
	}
	f.Found("http://a.test/found", 1, 0)
	run := f.build()
	if run == nil || len(run.groups) != 1 || run.groups[0].take != 5 {
		t.Fatalf("room for 5 of a window of 10, not hungry: the step is %+v; want it to take 5", run)
	}
	lse.taken["5"] = ""
	f.Found("http://a.test/found2", 1, 0)
	if run := f.build(); run == nil || len(run.groups) != 0 {
		t.Fatalf("room for 4 of a window of 10, not hungry: the step is %+v; want the link alone, nothing taken", run)
	}
}

// A step carries a group only for the shards it has something for:
// pages settled, politeness kept, a take, or a recheck. A shard with
// nothing of these is left out of it.
func TestAStepCarriesOnlyTheShardsItHasSomethingFor(t *testing.T) {
	f, _, _ := newOffline(t)
	f.opts.Window = 2 // a window of 2 per shard
	idle := &lease{shard: 1, taken: map[string]string{"x": "", "y": ""}, settling: map[string]string{}}
	kept := &lease{shard: 2, taken: map[string]string{"x": "", "y": ""}, settling: map[string]string{}}
	f.held[1], f.held[2] = idle, kept
	f.keeps[kept] = []any{"hold", "a.test", "1"}
	run := f.build()
	if run == nil || len(run.groups) != 1 || run.groups[0].l != kept {
		t.Fatalf("the step is %+v; want one group, the shard with a hold to keep", run)
	}
}

// A step's answer for a shard it took nothing for (it only settled)
// leaves the shard as it was: not hungry, so that the next step does not
// take for it before the next beat or half a window of room.
func TestASettleOnlyAnswerLeavesTheShardNotHungry(t *testing.T) {
	f, _, _ := newOffline(t)
	lse := &lease{shard: 3, taken: map[string]string{}, settling: map[string]string{"http://a.test/1": "e1"}}
	f.held[3] = lse
	f.apply(&stepRun{groups: []stepGroup{{l: lse, settled: []string{"http://a.test/1"}}}}, stepReply(3, 0, 0))
	if lse.hungry || len(lse.settling) != 0 {
		t.Fatalf("hungry %v, settling %v: want the page settled and the shard not hungry", lse.hungry, lse.settling)
	}
}

// A step's answer that nothing is pending any more ends the crawl here,
// when nothing of this process's is left, as a beat's does; an answer
// that did not read pending (-1) ends nothing.
func TestAStepAnsweredNothingPendingEndsTheCrawl(t *testing.T) {
	f, _, _ := newOffline(t)
	notRead := stepReply(0, 0, 0)[:4]
	f.apply(&stepRun{}, notRead)
	if f.ended {
		t.Fatal("a step that did not read pending (-1) ended the crawl")
	}
	none := stepReply(0, 0, 0)[:4]
	none[3] = integer(0)
	f.apply(&stepRun{}, none)
	if !f.ended {
		t.Fatal("a step answered nothing pending anywhere, nothing is left here, and the crawl did not end")
	}
}

// A shard to read back (after a reconnect) makes a step go on its own,
// with nothing else to send, and is read back once: the step asks for
// its recheck, and the next asks for nothing.
func TestAShardToReadBackMakesAStepGoOnce(t *testing.T) {
	f, _, _ := newOffline(t)
	f.opts.Window = 2 // a window of 3, full: nothing to take
	lse := &lease{shard: 3, token: 4, recheck: true, taken: map[string]string{"x": "", "y": "", "z": ""}, settling: map[string]string{}}
	f.held[3] = lse
	run := f.build()
	if run == nil || len(run.groups) != 1 || lse.recheck {
		t.Fatalf("a shard to read back: step %+v, still to read back %v; want a step with its group", run, lse.recheck)
	}
	// the group, after the step's 8 arguments and its count of groups:
	// shard, token, take, recheck
	if g := run.args[9:13]; g[0] != 3 || g[1] != int64(4) || g[2] != 0 || g[3] != 1 {
		t.Fatalf("the shard's group begins %v; want shard 3, token 4, nothing to take, read back", g)
	}
	if run := f.build(); run != nil {
		t.Fatalf("a shard read back already sent another step: %+v", run)
	}
}
