package fleet

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"loopkit/crawler/resp"
)

// lease is a shard this process holds: the token that fences its writes,
// when it must stop working the shard unless renewed, and the URLs it took
// and has not settled.
type lease struct {
	token    int64
	deadline time.Duration     // loop time: past it without a renewal, the shard is dropped here
	taken    map[string]string // url → its queue entry, taken and not settled
	taking   bool              // a take is on its way
	renewing bool
}

// A lease is renewed three times per its life, and given up here a
// margin before Redis lets it expire: so this process stops sending to a
// shard's hosts before another process may take the shard, and politeness
// holds fleet-wide across a handover (with clocks that drift by less than
// the margin in a lease's life).
const (
	beatsPerLease = 3
	marginShare   = 4 // the margin is a quarter of the lease
)

// beat is the fleet's heartbeat, run every third of a lease: say this
// process is alive, renew its leases, take its share of the shards, feed
// the crawler, and see whether the crawl is over.
func (f *Fleet) beat() {
	if f.finished {
		return
	}
	f.tick = f.loop.CallLater(f.opts.Lease/beatsPerLease, f.beat)
	now := f.loop.Time()
	for shard, l := range f.held {
		if now > l.deadline {
			f.drop(shard, "its lease ran out without a renewal (is Redis reachable?)")
		}
	}
	for shard, l := range f.held {
		f.renew(shard, l)
	}
	f.heartbeat(func() {
		f.share()
		for shard, l := range f.held {
			f.feed(shard, l)
		}
	})
	f.send()
	f.checkEnd()
}

// heartbeat tells the fleet this process is alive, counts the live ones
// (a process silent for three leases is dead), and then calls then.
func (f *Fleet) heartbeat(then func()) {
	now := time.Now().UnixMilli()
	key := f.prefix + "procs"
	f.client.Send("ZADD", key, now, f.opts.Owner)
	f.client.Send("ZREMRANGEBYSCORE", key, "-inf", now-3*f.opts.Lease.Milliseconds())
	n := f.client.Send("ZCARD", key)
	n.OnDone(func() {
		if live, err := resp.Int(n.Result()); err == nil && live > 0 {
			f.live = int(live)
		}
		if !f.finished {
			then()
		}
	})
}

func (f *Fleet) renew(shard int, l *lease) {
	if l.renewing {
		return
	}
	l.renewing = true
	asked := f.loop.Time()
	r := renew.Send(f.client, []string{f.key("lease", shard)}, f.opts.Owner, l.token, f.opts.Lease.Milliseconds())
	r.OnDone(func() {
		l.renewing = false
		if f.held[shard] != l {
			return
		}
		ok, err := resp.Int(r.Result())
		switch {
		case err != nil: // Redis unreachable: the deadline decides
		case ok == 1:
			l.deadline = asked + f.opts.Lease - f.opts.Lease/marginShare
		default:
			f.drop(shard, "another process holds its lease")
		}
	})
}

// share takes free shards until this process holds its share of them,
// ⌈shards / live processes⌉, and gives back what is beyond it. It takes
// one shard at a time (one acquire in flight), so that processes that
// start a moment apart each find shards free; and it offers Redis the
// free shards in an order that differs per process, so processes starting
// together do not all race for shard 0.
func (f *Fleet) share() {
	live := max(f.live, 1)
	want := (f.opts.Shards + live - 1) / live
	for len(f.held) > want {
		shards := keysOf(f.held)
		f.giveBack(shards[len(shards)-1])
	}
	if len(f.held) >= want || f.acquiring || f.c.Stopping() || f.finished {
		return
	}
	args := []any{f.prefix, f.opts.Owner, f.opts.Lease.Milliseconds()}
	start := int(hashString(f.opts.Owner) % uint32(f.opts.Shards))
	for i := range f.opts.Shards {
		if shard := (start + i) % f.opts.Shards; f.held[shard] == nil {
			args = append(args, shard)
		}
	}
	f.acquiring = true
	asked := f.loop.Time()
	r := acquire.Send(f.client, nil, args...)
	r.OnDone(func() {
		f.acquiring = false
		v, err := resp.Array(r.Result())
		if err != nil || len(v) != 3 || f.finished {
			return // every shard held, or Redis unreachable: tried again next beat
		}
		shard := int(v[0].Int)
		l := &lease{token: v[1].Int, deadline: asked + f.opts.Lease - f.opts.Lease/marginShare, taken: map[string]string{}}
		f.held[shard] = l
		f.Stats.Acquired++
		if back := v[2].Int; back > 0 {
			f.opts.Notice(fmt.Sprintf("fleet: took shard %d, and %d URLs its last holder had taken and not settled", shard, back))
		}
		f.inherit(shard, l)
		f.share() // and the next, if this process wants more
	})
}

// inherit gives the crawler the politeness state kept with the shard —
// its hosts' robots.txt, its servers' Retry-After — before any of its URLs.
func (f *Fleet) inherit(shard int, l *lease) {
	rob := f.client.Send("HGETALL", f.key("robots", shard))
	hold := f.client.Send("HGETALL", f.key("hold", shard))
	hold.OnDone(func() { // replies come in order: rob's is in too
		if f.held[shard] != l {
			return
		}
		if kv, err := resp.Strings(rob.Result()); err == nil {
			for i := 0; i+1 < len(kv); i += 2 {
				ms, body, ok := strings.Cut(kv[i+1], " ")
				until, err := strconv.ParseInt(ms, 10, 64)
				raw, derr := base64.StdEncoding.DecodeString(body)
				if ok && err == nil && derr == nil && time.UnixMilli(until).After(time.Now()) {
					f.c.KnowRobots(kv[i], raw, time.UnixMilli(until))
				}
			}
		}
		if kv, err := resp.Strings(hold.Result()); err == nil {
			for i := 0; i+1 < len(kv); i += 2 {
				if until, err := strconv.ParseInt(kv[i+1], 10, 64); err == nil {
					f.c.HoldServer(kv[i], time.UnixMilli(until))
				}
			}
		}
		f.feed(shard, l)
	})
}

// feed takes URLs from the shard's queue while the crawler has fewer than
// a window of them, and offers them.
func (f *Fleet) feed(shard int, l *lease) {
	room := f.window() - len(l.taken)
	if l.taking || room <= 0 || f.c.Stopping() {
		return
	}
	l.taking = true
	r := take.Send(f.client, []string{f.key("lease", shard), f.key("q", shard), f.key("p", shard)}, f.opts.Owner, l.token, room)
	r.OnDone(func() {
		l.taking = false
		entries, err := resp.Strings(r.Result())
		if f.fenced(err) && f.held[shard] == l {
			f.drop(shard, "another process holds its lease")
			return
		}
		if err != nil || f.held[shard] != l {
			return
		}
		for _, e := range entries {
			u, depth, redirects, ok := parseEntry(e)
			if !ok {
				continue
			}
			l.taken[u] = e
			f.Stats.Taken++
			f.c.Offer(u, depth, redirects)
		}
		if len(entries) == room {
			f.feed(shard, l) // there may be more
		}
	})
}

// window is how many URLs of each shard this process may have taken and
// not settled: its window, shared by the shards it holds.
func (f *Fleet) window() int { return f.opts.Window/max(len(f.held), 1) + 1 }

// drop stops working a shard here: its queued URLs are forgotten and its
// requests cancelled (they are its next holder's), and what it took and
// did not settle stays in Redis for the next holder.
func (f *Fleet) drop(shard int, why string) {
	if f.held[shard] == nil {
		return
	}
	delete(f.held, shard)
	f.Stats.LostLease++
	f.opts.Notice(fmt.Sprintf("fleet: shard %d paused here: %s", shard, why))
	f.c.Drop(func(origin string) bool { return f.shardOf(origin+"/") == shard })
}

// giveBack releases a shard this process holds more than its share of.
func (f *Fleet) giveBack(shard int) {
	l := f.held[shard]
	delete(f.held, shard)
	f.c.Drop(func(origin string) bool { return f.shardOf(origin+"/") == shard })
	release.Send(f.client, []string{f.key("lease", shard), f.key("q", shard), f.key("p", shard), f.prefix + "tally"}, f.opts.Owner, l.token)
}

// checkEnd ends the crawl when nothing is queued or taken anywhere, and
// nothing of this process's is on its way to Redis.
func (f *Fleet) checkEnd() {
	if f.ended || f.pending() {
		return
	}
	r := f.client.Send("GET", f.prefix+"pending")
	r.OnDone(func() {
		n, err := resp.Int(r.Result())
		if errors.Is(err, resp.ErrNil) {
			n, err = 0, nil
		}
		if err == nil && n == 0 && !f.pending() && !f.ended {
			f.ended = true
			f.c.End()
		}
	})
}

func (f *Fleet) fenced(err error) bool {
	var rerr *resp.Error
	return errors.As(err, &rerr) && rerr.Code() == "FENCED"
}

func encode(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func keysOf(m map[int]*lease) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func hashString(s string) uint32 {
	var h uint32 = 2166136261
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}
