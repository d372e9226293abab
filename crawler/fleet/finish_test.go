package fleet

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/journal"
	"loopkit/crawler/resp"
	"loopkit/internal/redistest"
	"loopkit/loop"
	"loopkit/task"
)

// joinedOffline is a fleet joined to a crawl of its own on a Redis of its
// own, with a crawler that never crawls: for what Finish does.
func joinedOffline(t *testing.T) (*redistest.Server, *Fleet, *loop.Loop) {
	t.Helper()
	rds := redistest.Start(t, redistest.Options{})
	f, _, l := offlineWith(t, Options{CrawlID: "c", Redis: rds.URL(), Settings: journal.Settings{Roots: []string{"http://a/"}}},
		crawler.Config{NoRobots: true})
	t.Cleanup(f.Close)
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) }); err != nil {
		t.Fatal(err)
	}
	return rds, f, l
}

// A crawl that Redis lost by the time a process finishes (Redis restarted
// empty, its keys deleted) ends that process with ErrGone, not as a crawl
// done: its last release found no crawl to give its shards back to.
func TestFinishingAfterRedisLostTheCrawlIsErrGone(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, f, l := joinedOffline(t)
	if _, err := rds.CLI("DEL", "loopkit:c:instance"); err != nil {
		t.Fatal(err)
	}
	_, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Finish(y) })
	if !errors.Is(err, ErrGone) {
		t.Fatalf("Finish on a crawl Redis lost: %v, want ErrGone", err)
	}
}

// Finish lets go of every lease it gives back: none is left held, with a
// timer that would later count it lost and say its shard paused, after
// the crawl is over.
func TestFinishLetsGoOfTheLeasesItGivesBack(t *testing.T) {
	t.Parallel() // each test has its own Redis
	_, f, l := joinedOffline(t)
	lse := &lease{shard: 3, token: 1, taken: map[string]string{}, settling: map[string]string{}}
	f.held[3] = lse
	f.extend(lse, l.Time())
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Finish(y) }); err != nil {
		t.Fatal(err)
	}
	if len(f.held) != 0 || lse.timer != nil {
		t.Fatalf("after Finish: %d leases held, a timer left %v; want none", len(f.held), lse.timer != nil)
	}
}

// Finish sends what is not sent yet before it lets go: a step whose
// reply was lost, which waits to be sent again and which nothing else
// will send now (the heartbeat is over), reaches Redis: its link is in
// the crawl's seen set and its pending count.
func TestFinishSendsWhatIsNotSentYet(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, f, l := joinedOffline(t)
	const u = "http://a.test/last"
	f.found = []any{f.shardOf(u), entry(u, 1, 0), u}
	f.cur = f.build()
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Finish(y) }); err != nil {
		t.Fatal(err)
	}
	seen, err := rds.CLI("SISMEMBER", "loopkit:c:seen", u)
	pending, err2 := rds.CLI("GET", "loopkit:c:pending")
	if err != nil || err2 != nil || strings.TrimSpace(seen) != "1" || strings.TrimSpace(pending) != "1" || f.unsent() {
		t.Fatalf("after Finish: seen %q, pending %q (%v, %v), unsent %v; want the link in, pending 1", seen, pending, err, err2, f.unsent())
	}
}

// A last step Redis refuses (here, the crawl's seen set is not a set)
// ends Finish with that refusal: what was not written is not reported as
// a crawl done.
func TestFinishGivesTheRefusalOfItsLastStep(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, f, l := joinedOffline(t)
	if _, err := rds.CLI("SET", "loopkit:c:seen", "not a set"); err != nil {
		t.Fatal(err)
	}
	f.Found("http://a.test/last", 1, 0)
	_, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Finish(y) })
	if err == nil || !strings.Contains(err.Error(), "refused") || errors.Is(err, ErrGone) {
		t.Fatalf("Finish after its last step was refused: %v, want Redis's refusal", err)
	}
}

// The crawl's tallies are read from Redis as they are kept there, every
// kind with its count; and each command sent is counted.
func TestTalliesAreTheCrawlsCountsInRedis(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, f, l := joinedOffline(t)
	if _, err := rds.CLI("HSET", "loopkit:c:tally", "ok", "3", "put_back", "12"); err != nil {
		t.Fatal(err)
	}
	before := f.Commands()
	got, err := task.Run(l, func(y task.Yield) (map[string]int, error) { return f.Tallies(y) })
	if err != nil || len(got) != 2 || got["ok"] != 3 || got["put_back"] != 12 {
		t.Fatalf("tallies %v, %v; want ok 3 and put_back 12", got, err)
	}
	if before == 0 || f.Commands() != before+1 {
		t.Fatalf("commands %d after joining, %d after one more; want some, then one more", before, f.Commands())
	}
}

// A fleet not joined has sent nothing.
func TestAFleetNotJoinedHasSentNoCommand(t *testing.T) {
	f, _ := New(Options{CrawlID: "c"})
	if n := f.Commands(); n != 0 {
		t.Fatalf("commands %d before joining, want 0", n)
	}
}

// waitFor runs on l until done says so, for up to a few seconds.
func waitFor(t *testing.T, l *loop.Loop, first func(), done func() bool) {
	t.Helper()
	_, err := task.Run(l, func(y task.Yield) (int, error) {
		first()
		for i := 0; !done() && i < 1000; i++ {
			if err := task.Sleep(y, 5*time.Millisecond); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An acquire that finds the crawl gone stops the process with ErrGone,
// as every other script does.
func TestAnAcquireThatFindsTheCrawlGoneStops(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, f, l := joinedOffline(t)
	if _, err := rds.CLI("DEL", "loopkit:c:instance"); err != nil {
		t.Fatal(err)
	}
	f.live = 1
	waitFor(t, l, f.share, func() bool { return !f.acquiring })
	if !errors.Is(f.err, ErrGone) || !f.ended || len(f.held) != 0 {
		t.Fatalf("error %v, ended %v, held %d: want ErrGone, the crawl ended, nothing held", f.err, f.ended, len(f.held))
	}
}

// A process alone takes every shard, one acquire after another, each
// with its own token.
func TestAProcessAloneTakesEveryShard(t *testing.T) {
	t.Parallel() // each test has its own Redis
	_, f, l := joinedOffline(t)
	f.opts.Shards, f.live = 4, 1
	waitFor(t, l, f.share, func() bool { return !f.acquiring && len(f.held) == 4 })
	if len(f.held) != 4 || f.Stats.Acquired != 4 {
		t.Fatalf("held %d, acquired %d: want all 4 shards", len(f.held), f.Stats.Acquired)
	}
	for shard, lse := range f.held {
		if lse.shard != shard || lse.token != 1 || !f.MaySend(fmt.Sprintf("http://%s", hostOfShard(t, f, shard))) {
			t.Fatalf("shard %d held as %+v; want its own, token 1, and sending allowed", shard, lse)
		}
	}
}

// hostOfShard is a host whose URLs fall in shard.
func hostOfShard(t *testing.T, f *Fleet, shard int) string {
	t.Helper()
	for i := range 1000 {
		if h := fmt.Sprintf("h%d.test", i); f.shardOfHost(h) == shard {
			return h
		}
	}
	t.Fatalf("no host of shard %d", shard)
	return ""
}

// A release that finds the crawl gone stops the process with ErrGone;
// the lease given back counts as given back, and is no longer held.
func TestAReleaseThatFindsTheCrawlGoneStops(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, f, l := joinedOffline(t)
	if _, err := rds.CLI("DEL", "loopkit:c:instance"); err != nil {
		t.Fatal(err)
	}
	lse := &lease{shard: 2, token: 1, draining: true, taken: map[string]string{}, settling: map[string]string{}}
	f.held[2] = lse
	waitFor(t, l, func() { f.maybeRelease(lse) }, func() bool { return f.err != nil })
	if !errors.Is(f.err, ErrGone) || f.Stats.GivenBack != 1 || f.held[2] != nil {
		t.Fatalf("error %v, given back %d, held %v: want ErrGone, and the lease let go", f.err, f.Stats.GivenBack, f.held[2])
	}
}

// A shard given back forgets here the URLs it had taken and the crawler
// had not started (they go back to the shard's queue in Redis), and so,
// nothing of it left here, is released at once: its lease ends in Redis.
func TestAShardGivenBackIsReleasedOnceItsQueuedURLsAreForgotten(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, f, l := joinedOffline(t)
	lse := &lease{shard: 2, token: 1, taken: map[string]string{}, settling: map[string]string{}}
	f.held[2] = lse
	if _, err := rds.CLI("SET", "loopkit:c:lease:2", f.opts.Owner+" 1"); err != nil {
		t.Fatal(err)
	}
	if _, err := rds.CLI("ZADD", "loopkit:c:procs", "1", f.opts.Owner); err != nil { // alive, as its beats say
		t.Fatal(err)
	}
	host := hostOfShard(t, f, 2)
	f.adopt(lse, entry("http://"+host+"/1", 1, 0))
	f.adopt(lse, entry("http://"+host+"/2", 1, 0))
	waitFor(t, l, func() { f.giveBack(lse) }, func() bool { return f.Stats.GivenBack == 1 })
	// The release went on the fleet's connection: a command sent after it
	// on the same connection sees it done.
	left, err := task.Run(l, func(y task.Yield) (resp.Value, error) { return f.client.Do(y, "EXISTS", "loopkit:c:lease:2") })
	if err != nil || len(lse.taken) != 0 || f.held[2] != nil || f.Stats.GivenBack != 1 || left.Int != 0 {
		t.Fatalf("taken %v, held %v, given back %d, lease in Redis %v (%v): want the queued URLs forgotten and the lease released",
			lse.taken, f.held[2] != nil, f.Stats.GivenBack, left.Int, err)
	}
	// Giving a shard back is not leaving the fleet: the process is still
	// counted alive, or the others would take a share too big.
	alive, err := task.Run(l, func(y task.Yield) (resp.Value, error) {
		return f.client.Do(y, "ZSCORE", "loopkit:c:procs", f.opts.Owner)
	})
	if err != nil || alive.Kind == resp.KindNil {
		t.Fatalf("after giving a shard back, the process left the fleet's list of the living (%v, %v); want it still there", alive, err)
	}
}

// Redis keeps a process's last step number ten leases, not one: a step
// whose reply was lost and that is sent again after an outage longer than
// a lease is still known there, and answered "run before" instead of run
// twice. (The number's time to live is read right after the step: the
// bound below leaves a whole lease for a busy machine.)
func TestAStepNumberIsKeptTenLeases(t *testing.T) {
	t.Parallel() // each test has its own Redis
	_, f, l := joinedOffline(t)
	waitFor(t, l, func() { f.Found("http://a.test/x", 1, 0) }, func() bool { return f.Stats.Steps == 1 })
	if f.Stats.Steps != 1 {
		t.Fatalf("%d steps answered, want the one with the link", f.Stats.Steps)
	}
	ttl, err := task.Run(l, func(y task.Yield) (resp.Value, error) {
		return f.client.Do(y, "PTTL", "loopkit:c:step:"+f.opts.Owner)
	})
	lease := f.opts.Lease.Milliseconds()
	if err != nil || ttl.Int <= 9*lease || ttl.Int > 10*lease {
		t.Fatalf("the step number lives %d ms more (%v); want about 10 leases of %d ms", ttl.Int, err, lease)
	}
}

// A process whose Redis address is not one is refused at Join, naming
// the option.
func TestJoiningWithAnAddressThatIsNotRedisIsRefused(t *testing.T) {
	f, _, l := offlineWith(t, Options{CrawlID: "c", Redis: "http://127.0.0.1:1/"}, crawler.Config{NoRobots: true})
	_, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) })
	if err == nil || !strings.HasPrefix(err.Error(), "Options.Redis: ") || f.client != nil {
		t.Fatalf("Join with an http address: %v, want an error naming Options.Redis and no client", err)
	}
	f.Close() // nothing to close: no panic
}

// A process offers Redis the free shards starting from its own place
// (its owner name's hash), so that processes starting together do not
// all race for shard 0; and it says it took back what a shard's last
// holder had taken and not settled only when there was some.
func TestAProcessTakesShardsFromItsOwnPlaceAndSaysWhatItTookBack(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, f, l := joinedOffline(t)
	var h heard
	f.opts.Notice = h.notice
	f.opts.Owner = "host:1:abcd" // its place is shard 12 of 16, not 0
	first := int(hashString(f.opts.Owner) % uint32(f.opts.Shards))
	second := (first + 1) % f.opts.Shards
	// a dead holder's window: one URL in the first shard's processing set
	if _, err := rds.CLI("SADD", fmt.Sprintf("loopkit:c:p:%d", first), entry("http://"+hostOfShard(t, f, first)+"/x", 1, 0)); err != nil {
		t.Fatal(err)
	}
	f.live = f.opts.Shards / 2 // a share of 2 shards
	waitFor(t, l, f.share, func() bool { return !f.acquiring && len(f.held) == 2 })
	if len(f.held) != 2 || f.held[first] == nil || f.held[second] == nil {
		t.Fatalf("owner %q holds shards %v; want %d and %d, from its own place on", f.opts.Owner, keysOf(f.held), first, second)
	}
	if h.count("took shard") != 1 || h.count(fmt.Sprintf("took shard %d, and 1 URLs", first)) != 1 {
		t.Fatalf("said %q; want only that shard %d came with 1 URL taken back", h.said, first)
	}
}

// An acquire answered after the process finished, or stopped, holds
// nothing: the shard would be held by a process that works it no more
// and gives nothing back.
func TestAnAcquireAnsweredAfterTheEndHoldsNothing(t *testing.T) {
	t.Parallel() // each test has its own Redis
	for _, why := range []string{"finished", "stopped"} {
		_, f, l := joinedOffline(t)
		f.live = 1
		waitFor(t, l, func() {
			f.share() // on its way
			if why == "finished" {
				f.finished = true
			} else {
				f.err = errors.New("stopped")
			}
		}, func() bool { return !f.acquiring })
		if f.acquiring || len(f.held) != 0 || f.Stats.Acquired != 0 {
			t.Fatalf("%s: acquiring %v, held %v, acquired %d; want the answer ignored", why, f.acquiring, keysOf(f.held), f.Stats.Acquired)
		}
	}
}

// What comes while a step is on its way waits for it, and goes in the
// next step as soon as it is answered: not at the next beat (there is
// none here).
func TestWhatComesWhileAStepIsOnItsWayGoesWhenItIsAnswered(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, f, l := joinedOffline(t)
	const later = "http://a.test/2"
	waitFor(t, l, func() {
		f.Found("http://a.test/1", 1, 0)
		f.send()             // the first step is on its way
		f.Found(later, 1, 0) // and this waits for it
	}, func() bool { return f.Stats.Steps == 2 })
	seen, err := rds.CLI("SISMEMBER", "loopkit:c:seen", later)
	if f.Stats.Steps != 2 || f.unsent() || err != nil || strings.TrimSpace(seen) != "1" {
		t.Fatalf("steps %d, unsent %v, the later link seen %q (%v); want two steps, the later link in the second", f.Stats.Steps, f.unsent(), seen, err)
	}
}

// A Join that cannot reach Redis closes the connection it made: it does
// not go on trying to connect, unseen, for the rest of the process.
func TestAJoinThatCannotReachRedisClosesItsConnection(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	rds.Kill()
	f, _, l := offlineWith(t, Options{CrawlID: "c", Redis: rds.URL(), JoinWait: 300 * time.Millisecond}, crawler.Config{NoRobots: true})
	_, err := task.Run(l, func(y task.Yield) (int, error) {
		if err := f.Join(y, l); err == nil || !strings.Contains(err.Error(), "cannot reach Redis") {
			t.Errorf("Join with Redis down: %v, want that it cannot reach Redis", err)
		}
		_, err := f.client.Do(y, "PING")
		return 0, err
	})
	if !errors.Is(err, resp.ErrClientClosed) {
		t.Fatalf("a command after the Join failed: %v; want the connection closed (%v)", err, resp.ErrClientClosed)
	}
}

// Finish sends a page settled here, or a hold kept, that waits for its
// step, before it gives the shard back: the page is not handed to the
// next holder to fetch again, and the hold reaches it.
func TestFinishSendsTheSettlesAndHoldsThatWait(t *testing.T) {
	t.Parallel() // each test has its own Redis
	for _, what := range []string{"settled", "kept"} {
		rds, f, l := joinedOffline(t)
		host := hostOfShard(t, f, 2)
		u := "http://" + host + "/1"
		lse := &lease{shard: 2, token: 1, taken: map[string]string{u: entry(u, 1, 0)}, settling: map[string]string{}}
		f.held[2] = lse
		for _, cmd := range [][]string{
			{"SET", "loopkit:c:lease:2", f.opts.Owner + " 1"},
			{"SADD", "loopkit:c:p:2", entry(u, 1, 0)},
			{"SET", "loopkit:c:pending", "1"},
		} {
			if _, err := rds.CLI(cmd...); err != nil {
				t.Fatal(err)
			}
		}
		until := time.Now().Add(time.Hour)
		_, err := task.Run(l, func(y task.Yield) (int, error) {
			if what == "settled" {
				f.Settled(u, nil) // its step not sent yet when Finish begins
			} else {
				f.Hold(host, until)
			}
			return 0, f.Finish(y)
		})
		if err != nil {
			t.Fatal(err)
		}
		switch what {
		case "settled":
			back, err := rds.CLI("LLEN", "loopkit:c:q:2")
			pending, err2 := rds.CLI("GET", "loopkit:c:pending")
			if err != nil || err2 != nil || strings.TrimSpace(back) != "0" || strings.TrimSpace(pending) != "0" {
				t.Fatalf("after Finish: %q URLs back in the queue, pending %q (%v, %v); want the page settled: none back, pending 0", back, pending, err, err2)
			}
		case "kept":
			held, err := rds.CLI("HGET", "loopkit:c:hold:2", host)
			if err != nil || strings.TrimSpace(held) != fmt.Sprint(until.UnixMilli()) {
				t.Fatalf("after Finish, the hold kept with shard 2 for %s is %q (%v); want %d", host, held, err, until.UnixMilli())
			}
		}
	}
}

// A last release that Redis refuses for another reason than a crawl it
// no longer has (here, out of memory) is not the crawl gone: the leases
// run out, and what was taken goes back then.
func TestARefusedLastReleaseIsNotTheCrawlGone(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, f, l := joinedOffline(t)
	if _, err := rds.CLI("CONFIG", "SET", "maxmemory", "1"); err != nil {
		t.Fatal(err)
	}
	_, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Finish(y) })
	if errors.Is(err, ErrGone) {
		t.Fatalf("Finish with its release refused for want of memory: %v; the crawl is not gone", err)
	}
}

// A process with no roots joins only a whole crawl: settings left in
// Redis without the crawl's instance (its keys being deleted) are not
// one, and it waits, saying so once, then says there is no such crawl.
func TestAJoinerWithoutRootsWaitsForTheCrawlsInstance(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, _, _ := joinedOffline(t)
	if _, err := rds.CLI("DEL", "loopkit:c:instance"); err != nil {
		t.Fatal(err)
	}
	var h heard
	g, _, l := offlineWith(t, Options{CrawlID: "c", Redis: rds.URL(), JoinWait: 300 * time.Millisecond, Notice: h.notice}, crawler.Config{NoRobots: true})
	t.Cleanup(g.Close)
	_, err := task.Run(l, func(y task.Yield) (int, error) { return 0, g.Join(y, l) })
	if err == nil || !strings.Contains(err.Error(), "no such crawl") {
		t.Fatalf("joining with no roots a crawl whose instance is gone: %v; want no such crawl", err)
	}
	// it looked more than once, and said it was waiting once
	if n := h.count("waiting for crawl c"); n != 1 {
		t.Fatalf("said %q: waiting %d times, want once", h.said, n)
	}
}
