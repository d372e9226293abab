package fleet

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/resp"
	"loopkit/loop"
	"loopkit/task"
)

// newOffline is a fleet with a crawler that never crawls (robots.txt
// off), on a loop of its own, closed when the test ends.
func newOffline(t *testing.T) (*Fleet, *crawler.Crawler, *loop.Loop) {
	t.Helper()
	return offlineWith(t, Options{CrawlID: "c"}, crawler.Config{NoRobots: true})
}

// offlineWith is newOffline with the fleet's options and the crawler's
// configuration given (its roots and Shared are set here).
func offlineWith(t *testing.T, opts Options, cfg crawler.Config) (*Fleet, *crawler.Crawler, *loop.Loop) {
	t.Helper()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	f, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Roots, cfg.Shared = []string{"http://a/"}, f
	c, err := crawler.New(l, cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.c, f.loop = c, l
	return f, c, l
}

// A step that answers that a shard's lease is another's drops the shard
// here at once: it is no longer held, and counts as a lost lease. (A
// crawler that never crawls stands in for the process's own.)
func TestAStepThatFindsTheLeaseLostDropsTheShard(t *testing.T) {
	f, _, _ := offlineWith(t, Options{CrawlID: "c"}, crawler.Config{})
	lse := &lease{shard: 2, token: 5, taken: map[string]string{}, settling: map[string]string{}}
	f.held[2] = lse
	run := &stepRun{groups: []stepGroup{{l: lse}}}
	lost := resp.Value{Kind: resp.KindArray, Elems: []resp.Value{
		{Kind: resp.KindInteger, Int: 2}, {Kind: resp.KindInteger, Int: 0}, {Kind: resp.KindInteger, Int: 0},
		{Kind: resp.KindArray, Elems: []resp.Value{}}, {Kind: resp.KindArray, Elems: []resp.Value{}}}}
	f.apply(run, []resp.Value{{Kind: resp.KindInteger}, {Kind: resp.KindInteger}, {Kind: resp.KindInteger}, {Kind: resp.KindInteger, Int: -1}, lost})
	if f.held[2] != nil || f.Stats.LostLease != 1 {
		t.Fatalf("held %v, lost leases %d: want the shard dropped", f.held[2], f.Stats.LostLease)
	}
}

// A robots.txt kept with a shard passes to the shard's next holder only
// while it lasts: one that has expired is not obeyed, and the host's
// robots.txt is fetched again. (Both say Disallow: /; only the one still
// good refuses its host's URL.)
func TestAnExpiredRobotsTxtIsNotInherited(t *testing.T) {
	f, c, _ := offlineWith(t, Options{CrawlID: "c"}, crawler.Config{}) // robots.txt obeyed
	bulk := func(s string) resp.Value { return resp.Value{Kind: resp.KindBulk, Str: s} }
	kept := func(until time.Time) resp.Value {
		return bulk(fmt.Sprintf("%d %s", until.UnixMilli(), base64.StdEncoding.EncodeToString([]byte("User-agent: *\nDisallow: /\n"))))
	}
	robots := resp.Value{Kind: resp.KindArray, Elems: []resp.Value{
		bulk("http://old.test"), kept(time.Now().Add(-time.Minute)),
		bulk("http://new.test"), kept(time.Now().Add(time.Hour)),
	}}
	f.inherit(robots, resp.Value{Kind: resp.KindArray})
	c.Offer("http://old.test/x", 1, 0)
	c.Offer("http://new.test/x", 1, 0)
	if got := c.Disallowed(); !slices.Equal(got, []string{"http://new.test/x"}) {
		t.Fatalf("robots.txt refused %v; want only new.test's URL: old.test's robots.txt had expired", got)
	}
}

// A holder stops sending to a shard's hosts a margin before Redis lets
// its lease expire: renewed at a moment, it may send until a quarter of
// a lease before the lease ends, and not after, by its own clock; and the
// shard is dropped then if no renewal came.
func TestAHolderStopsSendingAMarginBeforeItsLeaseEnds(t *testing.T) {
	f, _, l := offlineWith(t, Options{CrawlID: "c", Lease: 4 * time.Second}, crawler.Config{})
	shard := f.shardOfOrigin("http://a.test")
	lse := &lease{shard: shard, taken: map[string]string{}, settling: map[string]string{}}
	f.held[shard] = lse
	asked := l.Time()
	f.extend(lse, asked)
	if !f.MaySend("http://a.test") {
		t.Fatal("a lease just renewed may not send")
	}
	if want := asked + 3*time.Second; lse.sendBy != want || lse.timer == nil || lse.timer.When() != want {
		t.Fatalf("renewed at %v for 4 s, it may send until %v and is dropped at %v; want both at %v", asked, lse.sendBy, lse.timer.When(), want)
	}
}

// A shard being given back takes nothing more: a URL its step answers
// with is not offered to the crawler nor counted taken, since the shard's
// release puts what it holds back in its queue for the next holder. A
// shard still worked takes it.
func TestADrainingShardAdoptsNothing(t *testing.T) {
	f, c, _ := newOffline(t)
	draining := &lease{shard: 1, draining: true, taken: map[string]string{}, settling: map[string]string{}}
	f.adopt(draining, entry("http://a.test/x", 1, 0))
	if len(draining.taken) != 0 || f.Stats.Taken != 0 || c.Todo() != 0 {
		t.Fatalf("a draining shard took %v (taken %d), and the crawler has %d to do; want nothing", draining.taken, f.Stats.Taken, c.Todo())
	}
	working := &lease{shard: 2, taken: map[string]string{}, settling: map[string]string{}}
	f.adopt(working, entry("http://a.test/y", 1, 0))
	if len(working.taken) != 1 || f.Stats.Taken != 1 || c.Todo() != 1 {
		t.Fatalf("a shard still worked took %v (taken %d), and the crawler has %d to do; want the URL", working.taken, f.Stats.Taken, c.Todo())
	}
}

// A server's hold kept with a shard (a Retry-After, or the next start its
// last holder allowed) passes to the next holder while it lasts: the
// server may not be sent a request before it. One that has passed is not
// applied.
func TestInheritedHoldsLastAsLongAsTheyWereMeantTo(t *testing.T) {
	f, c, _ := newOffline(t)
	until := time.Now().Add(time.Hour)
	ms := func(t time.Time) resp.Value { return resp.Value{Kind: resp.KindBulk, Str: fmt.Sprint(t.UnixMilli())} }
	holds := resp.Value{Kind: resp.KindArray, Elems: []resp.Value{
		{Kind: resp.KindBulk, Str: "held.test"}, ms(until),
		{Kind: resp.KindBulk, Str: "passed.test"}, ms(time.Now().Add(-time.Minute)),
	}}
	f.inherit(resp.Value{Kind: resp.KindArray}, holds)
	next := c.NextStarts(func(string) bool { return true })
	if at, ok := next["held.test"]; !ok || at.Before(until.Add(-time.Minute)) {
		t.Fatalf("held.test may be sent a request at %v (%v); want not before %v", at, ok, until)
	}
	if at, ok := next["passed.test"]; ok {
		t.Fatalf("passed.test is held until %v by a hold that had passed", at)
	}
}

// drop acts only on the lease this process holds for the shard: a lease
// it let go already, or one replaced by a new lease of the same shard,
// changes nothing — no lost lease counted, the new lease kept.
func TestDroppingALeaseNoLongerHeldChangesNothing(t *testing.T) {
	f, _, _ := newOffline(t)
	old := &lease{shard: 3, taken: map[string]string{}, settling: map[string]string{}}
	current := &lease{shard: 3, token: 2, taken: map[string]string{}, settling: map[string]string{}}
	f.held[3] = current
	f.drop(old, "a late answer about the old lease")
	if f.held[3] != current || f.Stats.LostLease != 0 {
		t.Fatalf("held %v, lost leases %d: a stale drop changed the shard's lease", f.held[3], f.Stats.LostLease)
	}
	f.drop(current, "its lease ran out")
	if f.held[3] != nil || f.Stats.LostLease != 1 {
		t.Fatalf("held %v, lost leases %d: the lease held was not dropped", f.held[3], f.Stats.LostLease)
	}
}

// The crawl ends here only when nothing of this process's is left: not
// while a shard it holds has URLs taken and not settled, nor while one is
// settling, nor while a step has something to send.
func TestTheCrawlDoesNotEndWhileAnythingIsLeftHere(t *testing.T) {
	f, _, _ := newOffline(t)
	lse := &lease{shard: 1, taken: map[string]string{"http://a.test/x": "1 0 http://a.test/x"}, settling: map[string]string{}}
	f.held[1] = lse
	f.checkEnd()
	if f.ended {
		t.Fatal("the crawl ended with a URL taken and not settled")
	}
	delete(lse.taken, "http://a.test/x")
	lse.settling["http://a.test/x"] = "1 0 http://a.test/x"
	f.checkEnd()
	if f.ended {
		t.Fatal("the crawl ended with a URL settling")
	}
	delete(lse.settling, "http://a.test/x")
	f.checkEnd()
	if !f.ended {
		t.Fatal("nothing left here, and the crawl did not end")
	}
}

// A page settled after its shard was given up here is counted fenced
// (its next holder fetches it again), and nothing is sent for it.
func TestSettlingAPageOfAShardGivenUpCountsItFenced(t *testing.T) {
	f, _, _ := newOffline(t)
	f.Settled("http://gone.test/x", nil)
	if f.Stats.Fenced != 1 || len(f.settles) != 0 || f.unsent() {
		t.Fatalf("fenced %d, settles %v, unsent %v: want it fenced and nothing to send", f.Stats.Fenced, f.settles, f.unsent())
	}
}

// What is kept with a shard (robots.txt, a hold) is kept only for a
// shard held here: another's holder learns it again.
func TestKeepingForAShardNotHeldKeepsNothing(t *testing.T) {
	f, _, _ := newOffline(t)
	f.Hold("a.test", time.Now().Add(time.Minute))
	if len(f.keeps) != 0 {
		t.Fatalf("kept %v for a shard not held", f.keeps)
	}
	lse := &lease{shard: f.shardOfHost("a.test"), taken: map[string]string{}, settling: map[string]string{}}
	f.held[lse.shard] = lse
	f.Hold("a.test", time.Now().Add(time.Minute))
	f.Robots("http://a.test", []byte("User-agent: *\n"), time.Now().Add(time.Hour))
	if k := f.keeps[lse]; len(k) != 6 || k[0] != "hold" || k[3] != "robots" {
		t.Fatalf("kept %v for the shard held; want its hold, then its robots.txt", k)
	}
}

// A step that goes (here, with a link to write) takes URLs for a shard
// when the shard has room: all the room it has when it is hungry (a
// heartbeat passed, or its last take was full) or has room for half a
// window; nothing when it has less room and is not hungry, and nothing
// for a shard being given back.
func TestAStepTakesWhenTheShardHasRoom(t *testing.T) {
	f, _, _ := newOffline(t)
	lse := &lease{shard: 1, taken: map[string]string{}, settling: map[string]string{}}
	f.held[1] = lse
	f.opts.Window = 8 // Start's default: twice the crawler's MaxTasks
	w := f.window()
	takes := func() int {
		f.Found("http://a.test/found", 1, 0) // a step goes: it has a link to write (a step built takes what waits)
		run := f.build()
		if run == nil || len(run.groups) == 0 {
			return 0
		}
		return run.groups[0].take
	}
	if got := takes(); got != w {
		t.Fatalf("an empty shard takes %d, want its window %d", got, w)
	}
	for i := range w - 1 {
		lse.taken[fmt.Sprint(i)] = ""
	}
	if got := takes(); got != 0 {
		t.Fatalf("a shard with room for 1 of %d, not hungry, takes %d; want 0", w, got)
	}
	lse.hungry = true
	if got := takes(); got != 1 {
		t.Fatalf("a hungry shard with room for 1 takes %d, want 1", got)
	}
	if lse.hungry {
		t.Fatal("a step that took for a hungry shard left it hungry")
	}
	clear(lse.taken)
	lse.hungry, lse.draining = true, true
	if got := takes(); got != 0 {
		t.Fatalf("a shard being given back takes %d, want 0", got)
	}
}

// A page settled is tallied for the fleet's report under its kind and,
// where it has one, its detail (an HTTP error's status): both, once each.
func TestASettledPageTalliesItsKindAndItsDetail(t *testing.T) {
	f, _, _ := newOffline(t)
	const u = "http://a.test/x"
	lse := &lease{shard: f.shardOf(u), taken: map[string]string{u: entry(u, 1, 0)}, settling: map[string]string{}}
	f.held[lse.shard] = lse
	status := 503
	r := &crawler.Record{URL: u, Status: &status}
	kind, detail := crawler.Tally(r)
	f.Settled(u, r)
	s := f.settles[lse]
	if s == nil || detail == "" || s.kinds[kind] != 1 || s.kinds[detail] != 1 || len(s.kinds) != 2 {
		t.Fatalf("tallies %v for a %d; want %s and %s once each", s, status, kind, detail)
	}
}

// A page with no detail to its kind (a 200) is tallied under its kind
// alone: no kind named "" goes to the fleet's report. Two of them count
// twice under the one kind.
func TestASettledPageWithoutADetailTalliesOnlyItsKind(t *testing.T) {
	f, _, _ := newOffline(t)
	urls := []string{"http://a.test/x", "http://a.test/y"}
	lse := &lease{shard: f.shardOf(urls[0]), taken: map[string]string{}, settling: map[string]string{}}
	for _, u := range urls {
		lse.taken[u] = entry(u, 1, 0)
	}
	f.held[lse.shard] = lse
	status := 200
	kind, detail := crawler.Tally(&crawler.Record{URL: urls[0], Status: &status})
	for _, u := range urls {
		f.Settled(u, &crawler.Record{URL: u, Status: &status})
	}
	s := f.settles[lse]
	if s == nil || detail != "" || s.kinds[kind] != 2 || len(s.kinds) != 1 {
		t.Fatalf("tallies %v for two 200s; want %s twice and nothing else", s, kind)
	}
}

// A beat that finds nothing pending in the crawl ends it here, when
// nothing of this process's is left; one that finds the crawl not begun
// yet (no step has written its pending count: -1) ends nothing.
func TestABeatBeforeTheCrawlBeganEndsNothing(t *testing.T) {
	f, _, _ := newOffline(t)
	f.acquiring = true // no acquire goes out: there is no Redis here
	n := func(i int64) resp.Value { return resp.Value{Kind: resp.KindInteger, Int: i} }
	f.beaten(nil, 0, []resp.Value{n(1), n(-1)})
	if f.ended {
		t.Fatal("a beat that found the crawl not begun ended it")
	}
	f.beaten(nil, 0, []resp.Value{n(1), n(0)})
	if !f.ended {
		t.Fatal("nothing pending anywhere nor here, and the crawl did not end")
	}
}

// Joining goes on through a Redis that is not reachable for a moment —
// the connection lost, or not made again yet — and tries again until it
// answers; any other error ends it at once.
func TestJoiningRetriesWhileRedisIsUnreachable(t *testing.T) {
	f, _, l := newOffline(t)
	try := func(fail error) (calls int, err error) {
		_, err = task.Run(l, func(y task.Yield) (int, error) {
			return 0, f.retry(y, func() error {
				if calls++; calls < 3 {
					return fmt.Errorf("step: %w", fail)
				}
				return nil
			})
		})
		return calls, err
	}
	for _, lost := range []error{resp.ErrConnectionLost, resp.ErrNotConnected} {
		if calls, err := try(lost); err != nil || calls != 3 {
			t.Fatalf("with %v twice: %d calls, %v; want the third to succeed", lost, calls, err)
		}
	}
	refused := errors.New("WRONGTYPE Operation against a key holding the wrong kind of value")
	if calls, err := try(refused); !errors.Is(err, refused) || calls != 1 {
		t.Fatalf("with another error: %d calls, %v; want it at once", calls, err)
	}
}

// Start gives the fleet its default window, twice the crawler's
// MaxTasks, and keeps a window given. (The fleet is finished first: no
// heartbeat goes out, there is no Redis here.)
func TestStartGivesTheWindowItsDefault(t *testing.T) {
	for _, given := range []int{0, 5} {
		f, c, _ := offlineWith(t, Options{CrawlID: "c", Window: given}, crawler.Config{NoRobots: true, MaxTasks: 7})
		f.finished = true
		f.Start(c)
		want := given
		if given == 0 {
			want = 14
		}
		if f.opts.Window != want || f.c != c {
			t.Fatalf("window %d given: %d after Start, want %d", given, f.opts.Window, want)
		}
	}
}

// A lease renewed is dropped at its new deadline only: the timer of the
// deadline before is cancelled, or it would drop the lease just renewed.
func TestARenewalCancelsTheDeadlineBefore(t *testing.T) {
	f, _, l := newOffline(t)
	lse := &lease{shard: 1, taken: map[string]string{}, settling: map[string]string{}}
	f.held[1] = lse
	f.extend(lse, l.Time())
	before := lse.timer
	f.extend(lse, l.Time()+time.Second)
	if before.Cancel() || lse.timer == before {
		t.Fatal("a renewal left the deadline before it set: it would drop the lease")
	}
}

// A lease being given back is released only when nothing of it is left
// here: nothing taken, settling, or on its way to Redis (settles, kept
// politeness); and only if it is still held, and draining. (There is no
// Redis here: a release sent would panic.)
func TestALeaseGivenBackWaitsForWhatIsLeftOfIt(t *testing.T) {
	for name, setup := range map[string]func(f *Fleet, l *lease){
		"taken":        func(f *Fleet, l *lease) { l.taken["http://a/1"] = "0 0 http://a/1" },
		"settling":     func(f *Fleet, l *lease) { l.settling["http://a/1"] = "0 0 http://a/1" },
		"settles":      func(f *Fleet, l *lease) { f.settles[l] = &settles{kinds: map[string]int{}} },
		"keeps":        func(f *Fleet, l *lease) { f.keeps[l] = []any{"hold", "a", "1"} },
		"not draining": func(f *Fleet, l *lease) { l.draining = false },
		"not held":     func(f *Fleet, l *lease) { delete(f.held, l.shard) },
	} {
		f, _, _ := newOffline(t)
		lse := &lease{shard: 1, draining: true, taken: map[string]string{}, settling: map[string]string{}}
		f.held[1] = lse
		setup(f, lse)
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("%s: the lease was released (and, with no Redis here, panicked: %v)", name, p)
				}
			}()
			f.maybeRelease(lse)
		}()
		if f.Stats.GivenBack != 0 {
			t.Fatalf("%s: given back %d", name, f.Stats.GivenBack)
		}
	}
}

// What a holder keeps with a shard (a server's hold, a host's robots.txt)
// is what the shard's next holder inherits: a hold lasts until when it
// was meant to, and a robots.txt is obeyed.
func TestWhatIsKeptWithAShardIsWhatTheNextHolderInherits(t *testing.T) {
	f, _, _ := offlineWith(t, Options{CrawlID: "c"}, crawler.Config{}) // robots.txt obeyed
	for shard := range f.opts.Shards {
		f.held[shard] = &lease{shard: shard, taken: map[string]string{}, settling: map[string]string{}}
	}
	until := time.Now().Add(time.Hour).Truncate(time.Millisecond)
	f.Hold("held.test:80", until)
	f.Robots("http://robots.test", []byte("User-agent: *\nDisallow: /\n"), until)
	kept := map[string]resp.Value{"hold": {Kind: resp.KindArray}, "robots": {Kind: resp.KindArray}}
	for _, k := range f.keeps {
		for i := 0; i+2 < len(k); i += 3 {
			v := kept[k[i].(string)]
			v.Elems = append(v.Elems, resp.Value{Kind: resp.KindBulk, Str: k[i+1].(string)}, resp.Value{Kind: resp.KindBulk, Str: k[i+2].(string)})
			kept[k[i].(string)] = v
		}
	}
	// the next holder: another process, with a crawler of its own
	g, c, _ := offlineWith(t, Options{CrawlID: "c"}, crawler.Config{})
	g.inherit(kept["robots"], kept["hold"])
	// (the crawler keeps a hold on its loop's clock: it comes back within
	// a moment of the wall-clock time it was given)
	if at, ok := c.NextStarts(func(string) bool { return true })["held.test:80"]; !ok || at.Before(until.Add(-time.Minute)) || at.After(until.Add(time.Minute)) {
		t.Fatalf("held.test:80 inherited a hold until %v (%v); want %v", at, ok, until)
	}
	c.Offer("http://robots.test/x", 1, 0)
	if got := c.Disallowed(); !slices.Equal(got, []string{"http://robots.test/x"}) {
		t.Fatalf("the inherited robots.txt refused %v; want robots.test's URL", got)
	}
}
