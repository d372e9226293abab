package fleet

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/resp"
)

// The fleet's writes leave in steps, one command each (scripts.go's
// step): the links found during a turn of the loop, the pages settled,
// the politeness state kept, and the URLs to take, for every shard at
// once. One step is on its way at a time; what comes meanwhile waits for
// the next, so steps grow when Redis is slow instead of piling up.
//
// Two orders keep a crawl from losing pages. In a step, the links go in
// before the pages that found them are settled: a process that dies in
// between has not settled its page, which is fetched again, its links
// found again. And a page is settled only once its line is written to
// the output (the crawler waits for that before calling Settled).
//
// A step whose reply is lost — the connection dropped after Redis ran
// it, or before — is sent again, the same step with the same number,
// before any other: Redis runs it once, and the second time answers with
// what this process holds of each shard, so that no URL the lost reply
// carried is stranded.

// batch is what the next step sends.
type batch struct {
	found     []any               // (shard, entry, url) triples
	settles   map[*lease]*settles // by lease: its pages settled
	keeps     map[*lease][]any    // by lease: (hash, field, value) triples
	scheduled bool                // send runs at the end of this turn
}

func newBatch() batch {
	return batch{settles: map[*lease]*settles{}, keeps: map[*lease][]any{}}
}

// settles are a lease's pages settled: their entries, their URLs, and
// how many of each kind of record they make.
type settles struct {
	entries []any
	urls    []string
	kinds   map[string]int
}

// stepRun is a step on its way, kept until it is answered.
type stepRun struct {
	args     []any
	groups   []stepGroup
	inFlight bool
}

// stepGroup is a lease's part of a step.
type stepGroup struct {
	l       *lease
	settled []string // URLs
	take    int
}

// stepKept is how long Redis keeps a process's last step number: long
// enough to answer a step sent again after any reconnect.
const stepKept = 10 // leases

// Found is crawler.Shared's: a link for the fleet's seen set and queues.
func (f *Fleet) Found(u string, depth, redirects int32) {
	f.found = append(f.found, f.shardOf(u), entry(u, depth, redirects), u)
	f.Stats.Found++
	f.schedule()
}

// Settled is crawler.Shared's: an offered URL is done (or dropped); its
// line, if it has one, is written.
func (f *Fleet) Settled(u string, r *crawler.Record) {
	l := f.held[f.shardOf(u)]
	if l == nil {
		f.Stats.Fenced++ // its shard was given up meanwhile: its next holder fetches it again
		return
	}
	e, ok := l.taken[u]
	if !ok {
		return
	}
	delete(l.taken, u)
	l.settling[u] = e
	s := f.settles[l]
	if s == nil {
		s = &settles{kinds: map[string]int{}}
		f.settles[l] = s
	}
	s.entries = append(s.entries, e)
	s.urls = append(s.urls, u)
	if r != nil {
		kind, detail := crawler.Tally(r)
		s.kinds[kind]++
		if detail != "" {
			s.kinds[detail]++
		}
	}
	f.schedule()
}

// Robots is crawler.Shared's: a host's robots.txt, kept with its shard.
func (f *Fleet) Robots(origin string, body []byte, until time.Time) {
	f.keep(f.shardOfOrigin(origin), "robots", origin, fmt.Sprintf("%d %s", until.UnixMilli(), base64.StdEncoding.EncodeToString(body)))
}

// Hold is crawler.Shared's: a server's Retry-After, kept with its shard.
func (f *Fleet) Hold(authority string, until time.Time) {
	f.keep(f.shardOfHost(authority), "hold", authority, strconv.FormatInt(until.UnixMilli(), 10))
}

func (f *Fleet) keep(shard int, hash, field, value string) {
	l := f.held[shard]
	if l == nil {
		return // not ours any more: its next holder learns it again
	}
	f.keeps[l] = append(f.keeps[l], hash, field, value)
	f.schedule()
}

// schedule sends at the end of this turn.
func (f *Fleet) schedule() {
	if !f.scheduled && f.loop != nil {
		f.scheduled = true
		f.loop.CallSoon(func() {
			f.scheduled = false
			f.send()
		})
	}
}

// unsent says whether this process has writes not yet answered.
func (f *Fleet) unsent() bool {
	return f.cur != nil || len(f.found) > 0 || len(f.settles) > 0 || len(f.keeps) > 0
}

// send sends the step waiting to be sent again, or else the next.
func (f *Fleet) send() {
	if f.err != nil || f.client == nil || f.c == nil {
		return
	}
	if f.cur == nil {
		f.cur = f.build()
	}
	if f.cur != nil && !f.cur.inFlight && f.client.Connected() {
		f.transmit(f.cur)
	}
}

// build makes the next step of what waits, or nil if nothing does.
func (f *Fleet) build() *stepRun {
	run := &stepRun{}
	var groups []any
	// A step goes when there is something to write, or a queue that may
	// have more to take (hungry: a heartbeat passed, or the last take was
	// full). A step that goes anyway takes for every shard that has room
	// for half a window: its calls cost little next to the command's own.
	goes := len(f.found) > 0 || len(f.settles) > 0 || len(f.keeps) > 0
	for _, l := range f.leases() {
		goes = goes || l.hungry || l.recheck
	}
	if !goes {
		return nil
	}
	for _, l := range f.leases() {
		s, keeps := f.settles[l], f.keeps[l]
		take := 0
		if !l.draining && !f.finished && !f.c.Stopping() {
			if room := f.window() - len(l.taken); room > 0 && (l.hungry || room >= f.window()/2) {
				take = room
			}
		}
		l.hungry = false
		if s == nil && keeps == nil && take == 0 && !l.recheck {
			continue
		}
		g := stepGroup{l: l, take: take}
		recheck := 0
		if l.recheck {
			recheck, l.recheck = 1, false
		}
		groups = append(groups, l.shard, l.token, take, recheck)
		if s == nil {
			groups = append(groups, 0, 0)
		} else {
			g.settled = s.urls
			groups = append(append(groups, len(s.entries)), s.entries...)
			groups = append(groups, len(s.kinds))
			for _, kind := range slices.Sorted(maps.Keys(s.kinds)) {
				groups = append(groups, kind, s.kinds[kind])
			}
		}
		groups = append(append(groups, len(keeps)/3), keeps...)
		run.groups = append(run.groups, g)
	}
	if len(f.found) == 0 && len(run.groups) == 0 {
		return nil
	}
	f.seq++
	p := f.opts.Politeness
	run.args = append([]any{f.prefix, f.instance, f.opts.Owner, strconv.FormatInt(f.seq, 10),
		stepKept * f.opts.Lease.Milliseconds(), p.MaxPagesPerHost, p.MaxQueryVariants, len(f.found) / 3}, f.found...)
	run.args = append(append(run.args, len(run.groups)), groups...)
	f.batch = batch{settles: map[*lease]*settles{}, keeps: map[*lease][]any{}, scheduled: f.scheduled}
	return run
}

// transmit sends run, and applies its reply when it comes. A run whose
// reply does not come stays f.cur, and is sent again as it is.
func (f *Fleet) transmit(run *stepRun) {
	run.inFlight = true
	r := step.Send(f.client, nil, run.args...)
	r.OnDone(func() {
		run.inFlight = false
		v, err := resp.Array(r.Result())
		if err != nil {
			f.judge(err) // the crawl gone, or a write refused: stopped; else sent again
			return
		}
		f.cur = nil
		f.Stats.Steps++
		f.apply(run, v)
		f.schedule()
	})
}

// apply reads a step's reply: links new and capped, and per shard the
// pages settled and the URLs taken (offered to the crawler), or, for a
// step run before, what this process holds of it.
func (f *Fleet) apply(run *stepRun, v []resp.Value) {
	if len(v) != 4+len(run.groups) {
		f.fail(fmt.Errorf("fleet: Redis answered a step with %d values, want %d", len(v), 4+len(run.groups)))
		return
	}
	again := v[0].Int == 1
	f.Stats.New += int(v[1].Int)
	if n := v[2].Int; n > 0 {
		f.Stats.Capped += int(n)
		p := f.opts.Politeness
		f.notice(fmt.Sprintf("fleet: hosts that have had their share of the crawl (Config.MaxPagesPerHost %d) or paths their share of queries (Config.MaxQueryVariants %d): more of their URLs are not followed",
			p.MaxPagesPerHost, p.MaxQueryVariants))
	}
	for i, g := range run.groups {
		res := v[4+i].Elems
		l := g.l
		if len(res) != 5 || f.held[l.shard] != l {
			continue // given up meanwhile
		}
		if res[1].Int == 0 {
			f.drop(l, "another process holds its lease")
			continue
		}
		for _, u := range g.settled {
			delete(l.settling, u)
		}
		f.Stats.Settled += len(g.settled)
		for _, e := range res[4].Elems { // held, as the step began: this step's takes come after
			f.adopt(l, e.Str)
		}
		for _, e := range res[3].Elems {
			f.adopt(l, e.Str)
		}
		if !again && g.take > 0 && len(res[3].Elems) == g.take {
			l.hungry = true // there may be more
		}
		f.maybeRelease(l)
	}
	if v[3].Int == 0 {
		f.checkEnd()
	}
}

// adopt offers the crawler a URL taken from l's queue, unless it is known
// here already (a step run again answers with all l holds).
func (f *Fleet) adopt(l *lease, e string) {
	u, depth, redirects, ok := parseEntry(e)
	if !ok || l.draining {
		return // a draining shard's URLs go back to its queue when it is released
	}
	if _, ok := l.taken[u]; ok {
		return
	}
	if _, ok := l.settling[u]; ok {
		return
	}
	l.taken[u] = e
	f.Stats.Taken++
	f.c.Offer(u, depth, redirects)
}

// entry is a queued URL as the shard queues hold it.
func entry(u string, depth, redirects int32) string {
	return strconv.Itoa(int(depth)) + " " + strconv.Itoa(int(redirects)) + " " + u
}

func parseEntry(e string) (u string, depth, redirects int32, ok bool) {
	parts := strings.SplitN(e, " ", 3)
	if len(parts) != 3 {
		return "", 0, 0, false
	}
	d, err1 := strconv.ParseInt(parts[0], 10, 32)
	r, err2 := strconv.ParseInt(parts[1], 10, 32)
	if err1 != nil || err2 != nil {
		return "", 0, 0, false
	}
	return parts[2], int32(d), int32(r), true
}

// shardOf is the shard of a URL's server. The hash is FNV-1a of its host
// and port, the same in every process, so every process agrees on where
// a host belongs; a host's http and https are one server, and one shard.
// URLs are normalized, so the host is what lies between "//" and the
// next "/".
func (f *Fleet) shardOf(rawURL string) int {
	_, rest, _ := strings.Cut(rawURL, "//")
	host, _, _ := strings.Cut(rest, "/")
	return f.shardOfHost(host)
}

// shardOfOrigin is the shard of an origin, scheme://host:port.
func (f *Fleet) shardOfOrigin(origin string) int {
	_, host, _ := strings.Cut(origin, "//")
	return f.shardOfHost(host)
}

func (f *Fleet) shardOfHost(host string) int { return int(hashString(host) % uint32(f.opts.Shards)) }

func hashString(s string) uint32 {
	var h uint32 = 2166136261
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}
