package main

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/timeline"
)

// connEvents writes the crawl's requests for --trace_events: a thread per
// connection, in the process of the loop whose client it is, and a thread
// per host. Its methods are called from Config.OnAttempt, which the Group
// serializes.
type connEvents struct {
	out      buffered
	conns    map[connKey]*connState
	requests int
	unsent   int // requests that never had a connection: a thread each
	flights  []flight
}

type connKey struct {
	loop int
	conn uint64
}

type connState struct {
	end int64 // where its last request so far ended, in microseconds
}

// flight is one request's time in flight, for its host's thread.
type flight struct {
	host       string
	loop       int
	start, end int64
}

// attempted writes one request: on its connection's thread, a slice from
// when it left the frontier to its end, and a slice per phase inside it.
// A connection's thread is named when its first request comes.
func (c *connEvents) attempted(a *crawler.Attempt, offset time.Duration) {
	c.requests++
	pid := a.Loop + 1
	key := connKey{a.Loop, a.Trace.Conn}
	b := c.out.buf
	var tid int
	var st *connState
	switch {
	case a.Trace.Conn == 0:
		c.unsent++
		tid, st = noConnTid0+c.unsent, &connState{end: math.MinInt64}
		b = appendMeta(b, "thread_name", pid, tid, "no connection")
		b = appendSort(b, "thread_sort_index", pid, tid, tid)
	default:
		tid = connTid0 + int(a.Trace.Conn)
		if st = c.conns[key]; st == nil {
			st = &connState{end: math.MinInt64}
			c.conns[key] = st
			b = appendMeta(b, "thread_name", pid, tid, fmt.Sprintf("conn %d", a.Trace.Conn))
			b = appendSort(b, "thread_sort_index", pid, tid, tid)
		}
	}
	// A request that waited for this connection while it carried the one
	// before starts, on its thread, where that one ended: slices on one
	// thread must nest, not overlap. Its phases come first, to know where
	// it ends; each ends where the next begins, so they tile it.
	start := max(micros(a.Trace.Start+offset), st.end)
	var phases []phaseSpan
	from := start
	for _, p := range timeline.Phases(a.Trace, strings.HasPrefix(a.URL, "https:")) {
		if end := micros(p.End + offset); end > from {
			phases = append(phases, phaseSpan{p.Name, span{from, end}})
			from = end
		}
	}
	label := a.URL
	if u, err := url.Parse(a.URL); err == nil {
		label = u.RequestURI()
	}
	b = appendSlice(b, label, "request", pid, tid, span{start, from})
	b = append(b, `,"args":{"url":`...)
	b = appendString(b, a.URL)
	b = append(b, `,"try":`...)
	b = strconv.AppendInt(b, int64(a.Try), 10)
	outcome := a.Err
	if outcome == "" {
		outcome = "status " + strconv.Itoa(a.Status)
	}
	b = append(appendArg(b, "outcome", outcome), "}}"...)
	for _, p := range phases {
		b = append(appendSlice(b, p.name, "net", pid, tid, p.span), '}')
	}
	st.end = from
	c.out.buf = b
	c.out.done()
	if u, err := url.Parse(a.URL); err == nil {
		c.flights = append(c.flights, flight{host: u.Host, loop: a.Loop, start: start, end: from})
	}
}

type phaseSpan struct {
	name string
	span
}

// finish writes each host's thread and counter, and returns the requests
// and connections written.
func (c *connEvents) finish() (requests, conns int) {
	c.hosts()
	return c.requests, len(c.conns)
}

// hosts writes, for each host, in the process of the loop that owns it:
// a thread whose slices stack up as its requests in flight do, and a
// counter of them. Level k of the stack ("k in flight") is a slice for
// each stretch of time with k requests or more in flight: every such
// stretch lies inside one of level k-1, so the levels nest exactly.
func (c *connEvents) hosts() {
	type edge struct {
		at    int64
		delta int
	}
	edges := map[string][]edge{}
	loopOf := map[string]int{}
	for _, f := range c.flights {
		if f.end > f.start { // a request of no time in flight is none
			edges[f.host] = append(edges[f.host], edge{f.start, +1}, edge{f.end, -1})
		}
		loopOf[f.host] = f.loop
	}
	hosts := slices.Sorted(maps.Keys(edges))
	perLoop := map[int]int{}
	for _, host := range hosts {
		pid, tid := loopOf[host]+1, hostTid0+perLoop[loopOf[host]]
		perLoop[loopOf[host]]++
		b := appendMeta(c.out.buf, "thread_name", pid, tid, "host "+host)
		c.out.buf = appendSort(b, "thread_sort_index", pid, tid, tid)
		// An end before a start at the same time: a connection handed
		// from one request to the next is not two in flight.
		es := edges[host]
		slices.SortFunc(es, func(a, b edge) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.delta, b.delta)) })
		var levels []phaseSpan
		var since []int64 // since[k-1]: when k requests or more were first in flight
		for i, e := range es {
			if e.delta > 0 {
				since = append(since, e.at)
			} else {
				k := len(since)
				levels = append(levels, phaseSpan{strconv.Itoa(k) + " in flight", span{since[k-1], e.at}})
				since = since[:k-1]
			}
			if i+1 < len(es) && es[i+1].at == e.at {
				continue // one counter value per instant: the last
			}
			b := appendEvent(c.out.buf, "C", "in flight: "+host, "host", pid, 0, e.at)
			b = append(b, `,"args":{"requests":`...)
			c.out.buf = append(strconv.AppendInt(b, int64(len(since)), 10), "}}"...)
			c.out.done()
		}
		// Outer levels first where they start together: a viewer that
		// keeps the file's order for equal times then opens them in order.
		slices.SortStableFunc(levels, func(a, b phaseSpan) int {
			return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end))
		})
		for _, l := range levels {
			c.out.buf = append(appendSlice(c.out.buf, l.name, "host", pid, tid, l.span), '}')
			c.out.done()
		}
	}
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
		sp := everything.inside(&e.parseAt[p.Worker], micros(p.Start.Sub(epoch)), micros(p.End.Sub(epoch)))
		b := appendSlice(w.buf, "parse", "parse", e.workersPid(), p.Worker+1, sp)
		b = append(b, `,"args":{"url":`...)
		b = appendString(b, p.URL)
		b = append(b, `,"bytes":`...)
		w.buf = append(strconv.AppendInt(b, int64(p.Bytes), 10), "}}"...)
		w.done()
	}
}
