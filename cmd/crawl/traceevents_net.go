package main

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/timeline"
)

// connEvents writes the crawl's requests for --trace_events: an async
// track per connection, in the process of the loop whose client it is.
// An async track holds slices that are no thread's: a connection's
// requests, one after the other, each with its phases inside it. Its
// methods are called from Config.OnAttempt, which the Group serializes.
type connEvents struct {
	out      buffered
	conns    map[connKey]*connState
	requests int
	unsent   int // requests that never had a connection: a track each
	flights  []flight
}

type connKey struct {
	loop int
	conn uint64
}

type connState struct {
	end time.Duration // when its last request so far ended
}

// flight is one request's time in flight, for its host's counter.
type flight struct {
	host       string
	loop       int
	start, end time.Duration
}

// attempted writes one request: on its connection's track, a slice from
// when it left the frontier to its end, and a slice per phase inside it.
// A connection's track is opened by a slice named after it, one
// nanosecond before its first request (so the viewer names the track
// after the connection, and nests the requests inside), and closed by
// finish.
func (c *connEvents) attempted(a *crawler.Attempt, offset time.Duration) {
	c.requests++
	pid := a.Loop + 1
	key := connKey{a.Loop, a.Trace.Conn}
	name := fmt.Sprintf("conn %d", a.Trace.Conn)
	id := fmt.Sprintf("loop%d.conn%d", a.Loop, a.Trace.Conn)
	if a.Trace.Conn == 0 {
		c.unsent++
		name, id = "no connection", fmt.Sprintf("loop%d.none%d", a.Loop, c.unsent)
	}
	start := a.Trace.Start + offset
	st := c.conns[key]
	b := c.out.buf
	switch {
	case a.Trace.Conn == 0:
		b = append(appendAsync(b, "b", name, id, pid, start-1), '}')
	case st == nil:
		st = &connState{}
		c.conns[key] = st
		b = append(appendAsync(b, "b", name, id, pid, start-1), '}')
	default:
		// A request that waited for this connection while it carried the
		// one before starts, on its track, where that one ended: slices
		// on one track must nest, not overlap.
		start = max(start, st.end)
	}
	label := a.URL
	if u, err := url.Parse(a.URL); err == nil {
		label = u.RequestURI()
	}
	b = appendAsync(b, "b", label, id, pid, start)
	b = append(b, `,"args":{"url":`...)
	b = appendString(b, a.URL)
	b = append(b, `,"try":`...)
	b = strconv.AppendInt(b, int64(a.Try), 10)
	outcome := a.Err
	if outcome == "" {
		outcome = "status " + strconv.Itoa(a.Status)
	}
	b = append(appendArg(b, "outcome", outcome), "}}"...)
	from := start
	for _, p := range timeline.Phases(a.Trace, strings.HasPrefix(a.URL, "https:")) {
		if end := p.End + offset; end > from {
			b = append(appendAsync(b, "b", p.Name, id, pid, from), '}')
			b = append(appendAsync(b, "e", p.Name, id, pid, end), '}')
			from = end
		}
	}
	b = append(appendAsync(b, "e", label, id, pid, from), '}')
	if a.Trace.Conn == 0 {
		b = append(appendAsync(b, "e", name, id, pid, from+1), '}')
	} else {
		st.end = from
	}
	c.out.buf = b
	c.out.done()
	if u, err := url.Parse(a.URL); err == nil {
		c.flights = append(c.flights, flight{host: u.Host, loop: a.Loop, start: start, end: from})
	}
}

// finish closes every connection's track, one nanosecond after its last
// request, and writes each host's requests in flight as a counter: the
// host's ramp-up. It returns the requests and connections written.
func (c *connEvents) finish() (requests, conns int) {
	b := c.out.buf
	keys := slices.SortedFunc(func(yield func(connKey) bool) {
		for k := range c.conns {
			if !yield(k) {
				return
			}
		}
	}, func(a, b connKey) int { return cmp.Or(cmp.Compare(a.loop, b.loop), cmp.Compare(a.conn, b.conn)) })
	for _, k := range keys {
		id := fmt.Sprintf("loop%d.conn%d", k.loop, k.conn)
		b = append(appendAsync(b, "e", fmt.Sprintf("conn %d", k.conn), id, k.loop+1, c.conns[k].end+1), '}')
	}
	c.out.buf = b
	c.hostCounters()
	return c.requests, len(c.conns)
}

// hostCounters writes, for each host, the number of its requests in
// flight each time it changes, in the process of the loop that owns it.
func (c *connEvents) hostCounters() {
	type edge struct {
		at    time.Duration
		delta int
	}
	edges := map[string][]edge{}
	loopOf := map[string]int{}
	for _, f := range c.flights {
		edges[f.host] = append(edges[f.host], edge{f.start, +1}, edge{f.end, -1})
		loopOf[f.host] = f.loop
	}
	for host, es := range edges {
		// An end before a start at the same time: a connection handed
		// from one request to the next is not two in flight.
		slices.SortFunc(es, func(a, b edge) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.delta, b.delta)) })
		n := 0
		for i, e := range es {
			n += e.delta
			if i+1 < len(es) && es[i+1].at == e.at {
				continue // one value per instant: the last
			}
			b := appendEvent(c.out.buf, "C", "in flight: "+host, "host", loopOf[host]+1, 0, e.at)
			b = append(b, `,"args":{"requests":`...)
			c.out.buf = append(strconv.AppendInt(b, int64(n), 10), "}}"...)
			c.out.done()
		}
	}
}

// appendAsync opens a nestable async event ("b" begins a slice, "e" ends
// the innermost one open), on the track that id names in process pid.
func appendAsync(b []byte, ph, name, id string, pid int, ts time.Duration) []byte {
	b = appendEvent(b, ph, name, "net", pid, 0, ts)
	b = append(b, `,"id":`...)
	return appendString(b, id)
}

// parsed returns Config.OnParse: each parse worker writes its pages into
// a buffer of its own, a slice per page on its thread, timed from epoch.
func (e *eventsFile) parsed(epoch time.Time) func(crawler.ParseEvent) {
	return func(p crawler.ParseEvent) {
		if p.Worker < 0 || p.Worker >= len(e.workers) {
			e.lost.Add(1) // only if the crawler had more workers than it was told: said at close
			return
		}
		w := &e.workers[p.Worker]
		e.parses[p.Worker]++
		b := appendEvent(w.buf, "X", "parse", "parse", e.workersPid(), p.Worker+1, p.Start.Sub(epoch))
		b = appendDur(b, p.End.Sub(p.Start))
		b = append(b, `,"args":{"url":`...)
		b = appendString(b, p.URL)
		b = append(b, `,"bytes":`...)
		w.buf = append(strconv.AppendInt(b, int64(p.Bytes), 10), "}}"...)
		w.done()
	}
}
