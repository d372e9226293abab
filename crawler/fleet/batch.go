package fleet

import (
	"loopkit/crawler/resp"
	"loopkit/future"
)

// The fleet's writes leave in batches, one per turn of the loop, like the
// journal's: the links found in a turn are one found command, the URLs
// settled one settle per shard. One batch is on its way at a time; what
// comes meanwhile waits for the next.
//
// The order is what keeps a crawl from losing links: a page is settled
// only once the found command carrying its links has been answered. If a
// process dies between the two, the page was never settled: it goes back
// to its queue when its lease passes on, and is fetched again, its links
// found again. At-least-once, never at-most-once.

// schedule sends at the end of this turn.
func (f *Fleet) schedule() {
	if !f.scheduled {
		f.scheduled = true
		f.loop.CallSoon(func() {
			f.scheduled = false
			f.send()
		})
	}
}

// pending says whether this process has writes not yet answered.
func (f *Fleet) pending() bool {
	return f.sending || len(f.found) > 0 || len(f.settled) > 0 || len(f.keeps) > 0
}

// send sends the links found, then — once Redis has them — the URLs
// settled and the politeness state. A batch that fails (Redis lost) is
// kept and sent again: found is idempotent (a set), and settle is fenced.
func (f *Fleet) send() {
	if f.sending || !f.pending() {
		return
	}
	f.sending = true
	found := f.found
	f.found = nil
	first := f.client.Send("PING") // an answered no-op when nothing was found
	if len(found) > 0 {
		first = foundScript(f, found)
	}
	first.OnDone(func() {
		if n, err := first.Result(); err != nil {
			f.found = append(found, f.found...) // again, in order, at the next beat
			f.sending = false
			return
		} else if len(found) > 0 {
			f.Stats.New += int(n.Int)
		}
		f.sendSettled()
	})
}

func foundScript(f *Fleet, triples []any) *future.Future[resp.Value] {
	return found.Send(f.client, []string{f.prefix + "seen", f.prefix + "pending"}, append([]any{f.prefix}, triples...)...)
}

// sendSettled settles each shard's batch, and keeps the politeness state.
func (f *Fleet) sendSettled() {
	settled, keeps := f.settled, f.keeps
	f.settled, f.keeps = map[int][]any{}, nil
	left := len(settled) + len(keeps)
	if left == 0 {
		f.sending = false
		f.schedule() // what came meanwhile
		return
	}
	one := func() {
		if left--; left == 0 {
			f.sending = false
			f.schedule()
		}
	}
	for shard, triples := range settled {
		l := f.held[shard]
		if l == nil {
			f.Stats.Fenced += len(triples) / 4
			one()
			continue
		}
		keys := []string{f.key("lease", shard), f.key("p", shard), f.prefix + "pending", f.prefix + "done", f.prefix + "tally"}
		r := settle.Send(f.client, keys, append([]any{f.opts.Owner, l.token}, triples...)...)
		r.OnDone(func() {
			defer one()
			n, err := r.Result()
			switch {
			case f.fenced(err):
				f.Stats.Fenced += len(triples) / 4
				f.drop(shard, "another process holds its lease")
			case err != nil:
				if f.held[shard] == l { // Redis lost: again at the next beat
					f.settled[shard] = append(triples, f.settled[shard]...)
				}
			default:
				f.Stats.Settled += int(n.Int)
			}
		})
	}
	for _, k := range keeps {
		l := f.held[k.shard]
		if l == nil {
			one()
			continue
		}
		r := keep.Send(f.client, []string{f.key("lease", k.shard), f.key(k.hash, k.shard)}, f.opts.Owner, l.token, k.field, k.value)
		r.OnDone(one)
	}
}
