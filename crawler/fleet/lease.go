package fleet

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"loopkit/crawler/resp"
	"loopkit/loop"
)

// lease is a shard this process holds: the token that fences its writes,
// the moment past which it may send nothing to the shard's hosts unless
// renewed, and the URLs it took and has not settled.
type lease struct {
	shard    int
	token    int64
	sendBy   time.Duration     // loop time: no request to the shard's hosts starts after it, unless renewed
	timer    *loop.Timer       // drops the shard at sendBy
	taken    map[string]string // url → its queue entry: offered to the crawler, not settled by it
	settling map[string]string // url → its entry: settled here, not yet in Redis
	hungry   bool              // its queue may have more: take at the next step
	recheck  bool              // read its processing set back at the next step (after a reconnect)
	draining bool              // being given back: nothing more is taken
}

// A lease is renewed three times per its life. Its holder stops sending
// to the shard's hosts a margin before Redis lets the lease expire, by
// its own clock, checked before every request (MaySend): so the old
// holder is quiet before a new one may start, and politeness holds
// across a handover, even when the holder was frozen past its lease (a
// stopped VM, a long pause) and wakes up believing it still works the
// shard. Clocks need only agree on how long a lease lasts: the margin
// covers a drift of a quarter of a lease over one lease.
const (
	beatsPerLease = 3
	marginShare   = 4 // the margin is a quarter of the lease
)

// heartbeat runs every third of a lease: it says this process is alive,
// renews its leases, learns how many processes are alive and whether
// anything is left — one command — and then takes this process's share
// of the shards and feeds the crawler.
func (f *Fleet) heartbeat() {
	if f.finished || f.err != nil {
		return
	}
	f.tick = f.loop.CallLater(f.opts.Lease/beatsPerLease, f.heartbeat)
	f.send() // a step waiting to be sent again goes now
	leases := f.leases()
	ms := f.opts.Lease.Milliseconds()
	args := []any{f.prefix, f.instance, f.opts.Owner, ms, ms}
	for _, l := range leases {
		args = append(args, l.shard, l.token)
	}
	asked := f.loop.Time()
	r := beat.Send(f.client, nil, args...)
	r.OnDone(func() {
		v, err := resp.Array(r.Result())
		if err != nil {
			f.judge(err) // Redis unreachable: the leases' own timers decide
			return
		}
		f.beaten(leases, asked, v)
	})
}

// beaten reads a beat's answer: how many processes are alive, how many
// URLs are pending in the crawl (-1: none written yet, the crawl not
// begun), and for each lease asked at loop time asked whether it was
// renewed.
func (f *Fleet) beaten(leases []*lease, asked time.Duration, v []resp.Value) {
	if f.finished || f.err != nil || len(v) != 2+len(leases) {
		return
	}
	f.live = int(v[0].Int)
	for i, l := range leases {
		switch {
		case f.held[l.shard] != l:
		case v[2+i].Int == 1:
			f.extend(l, asked)
		default:
			f.drop(l, "another process holds its lease")
		}
	}
	f.share()
	for _, l := range f.held {
		l.hungry = true
	}
	f.schedule()
	if v[1].Int == 0 {
		f.checkEnd()
	}
}

// extend moves l's deadline on, after a renewal asked at loop time asked.
func (f *Fleet) extend(l *lease, asked time.Duration) {
	l.sendBy = asked + f.opts.Lease - f.opts.Lease/marginShare
	if l.timer != nil {
		l.timer.Cancel()
	}
	l.timer = f.loop.CallAt(l.sendBy, func() {
		l.timer = nil
		f.drop(l, "its lease ran out without a renewal (is Redis reachable?)")
	})
}

// MaySend is crawler.Shared's: a request to origin may go on the wire
// only while this process holds the shard, by its own clock.
func (f *Fleet) MaySend(origin string) bool {
	l := f.held[f.shardOfOrigin(origin)]
	return l != nil && f.loop.Time() < l.sendBy
}

// share takes free shards until this process holds its share of them,
// ⌈shards / live processes⌉, and gives back what is beyond it. It takes
// one shard at a time (one acquire in flight), so that processes that
// start a moment apart each find shards free; and it offers Redis the
// free shards in an order that differs per process, so processes starting
// together do not all race for shard 0. A process is alive while it beats:
// one silent for a lease is dead, so its shards, free once their leases
// expire, are taken within a lease and a beat.
func (f *Fleet) share() {
	if f.finished || f.err != nil || f.c.Stopping() {
		return
	}
	live := max(f.live, 1)
	want := (f.opts.Shards + live - 1) / live
	var working []*lease
	for _, l := range f.leases() {
		if !l.draining {
			working = append(working, l)
		}
	}
	for ; len(working) > want; working = working[:len(working)-1] {
		f.giveBack(working[len(working)-1])
	}
	if len(working) >= want || f.acquiring {
		return
	}
	args := []any{f.prefix, f.instance, f.opts.Owner, f.opts.Lease.Milliseconds()}
	start := int(hashString(f.opts.Owner) % uint32(f.opts.Shards))
	for i := range f.opts.Shards {
		if shard := (start + i) % f.opts.Shards; f.held[shard] == nil {
			args = append(args, shard)
		}
	}
	if len(args) == 4 {
		return
	}
	f.acquiring = true
	asked := f.loop.Time()
	r := acquire.Send(f.client, nil, args...)
	r.OnDone(func() {
		f.acquiring = false
		v, err := r.Result()
		if err != nil {
			f.judge(err)
			return
		}
		if v.Kind != resp.KindArray || len(v.Elems) != 5 || f.finished || f.err != nil {
			return // every shard held: tried again next beat
		}
		shard := int(v.Elems[0].Int)
		l := &lease{shard: shard, token: v.Elems[1].Int, taken: map[string]string{}, settling: map[string]string{}, hungry: true}
		f.held[shard] = l
		f.extend(l, asked)
		f.Stats.Acquired++
		if back := v.Elems[2].Int; back > 0 {
			f.opts.Notice(fmt.Sprintf("fleet: took shard %d, and %d URLs its last holder had taken and not settled", shard, back))
		}
		f.inherit(v.Elems[3], v.Elems[4])
		f.schedule()
		f.share() // and the next, if this process wants more
	})
}

// inherit gives the crawler the politeness state kept with a shard just
// taken — its hosts' robots.txt, its servers' Retry-After and next
// starts — before any of its URLs.
func (f *Fleet) inherit(robots, holds resp.Value) {
	for i := 0; i+1 < len(robots.Elems); i += 2 {
		ms, body, ok := strings.Cut(robots.Elems[i+1].Str, " ")
		until, err := strconv.ParseInt(ms, 10, 64)
		raw, derr := base64.StdEncoding.DecodeString(body)
		if ok && err == nil && derr == nil && time.UnixMilli(until).After(time.Now()) {
			f.c.KnowRobots(robots.Elems[i].Str, raw, time.UnixMilli(until))
		}
	}
	for i := 0; i+1 < len(holds.Elems); i += 2 {
		if until, err := strconv.ParseInt(holds.Elems[i+1].Str, 10, 64); err == nil && time.UnixMilli(until).After(time.Now()) {
			f.c.HoldServer(holds.Elems[i].Str, time.UnixMilli(until))
		}
	}
}

// drop stops working a shard here at once: its queued URLs are forgotten
// and its requests on the wire cancelled (they are its next holder's),
// and what it took and did not settle stays in Redis for the next holder.
func (f *Fleet) drop(l *lease, why string) {
	if f.held[l.shard] != l {
		return
	}
	f.forget(l)
	f.Stats.LostLease++
	f.opts.Notice(fmt.Sprintf("fleet: shard %d paused here: %s", l.shard, why))
	f.c.Drop(func(origin string) bool { return f.shardOfOrigin(origin) == l.shard })
}

// forget lets l go here, and what was to be sent for it.
func (f *Fleet) forget(l *lease) {
	delete(f.held, l.shard)
	if l.timer != nil {
		l.timer.Cancel()
		l.timer = nil
	}
	if s := f.settles[l]; s != nil {
		f.Stats.Fenced += len(s.urls)
	}
	delete(f.settles, l)
	delete(f.keeps, l)
}

// giveBack drains a shard this process holds more than its share of:
// its queued URLs are forgotten here, its requests on the wire finish and
// are settled, and then the lease is released (maybeRelease), with its
// servers' next starts for the next holder. Nothing is cancelled, and
// nothing is fetched twice.
func (f *Fleet) giveBack(l *lease) {
	l.draining = true
	f.c.Drain(func(origin string) bool { return f.shardOfOrigin(origin) == l.shard },
		func(u string) { delete(l.taken, u) })
	f.maybeRelease(l)
}

// maybeRelease releases a draining lease once nothing of it is left here.
func (f *Fleet) maybeRelease(l *lease) {
	if !l.draining || f.held[l.shard] != l || len(l.taken) > 0 || len(l.settling) > 0 || f.settles[l] != nil || f.keeps[l] != nil {
		return
	}
	args := append([]any{f.prefix, f.instance, f.opts.Owner, 0}, f.releaseArgs(l)...)
	f.forget(l)
	f.Stats.GivenBack++
	r := release.Send(f.client, nil, args...)
	r.OnDone(func() {
		if err := r.Err(); err != nil {
			f.judge(err) // Redis unreachable: the lease expires, and the next holder puts back what it held
		}
	})
}

// releaseArgs are l's part of a release: its shard, its token, and its
// servers' next starts.
func (f *Fleet) releaseArgs(l *lease) []any {
	next := f.c.NextStarts(func(origin string) bool { return f.shardOfOrigin(origin) == l.shard })
	args := []any{l.shard, l.token, len(next)}
	for _, authority := range slices.Sorted(func(yield func(string) bool) {
		for a := range next {
			if !yield(a) {
				return
			}
		}
	}) {
		args = append(args, authority, next[authority].UnixMilli())
	}
	return args
}

// checkEnd ends the crawl when Redis says nothing is queued or taken
// anywhere, and nothing of this process's is on its way to Redis.
func (f *Fleet) checkEnd() {
	if f.unsent() {
		return
	}
	for _, l := range f.held {
		if len(l.taken) > 0 || len(l.settling) > 0 {
			return
		}
	}
	f.end()
}

// leases are the leases held, by shard.
func (f *Fleet) leases() []*lease {
	var out []*lease
	for _, shard := range keysOf(f.held) {
		out = append(out, f.held[shard])
	}
	return out
}

// window is how many URLs of each shard this process may have taken and
// not settled: its window, shared by the shards it holds.
func (f *Fleet) window() int { return f.opts.Window/max(len(f.held), 1) + 1 }

func keysOf(m map[int]*lease) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
