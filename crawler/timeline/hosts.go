package timeline

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// ramp is one host's requests in flight over time: a crawler starts a
// host at one request at a time and lets it earn more, and a semaphore
// lets requests in as others finish; either way the ramp-up shows here.
type ramp struct {
	host     string
	requests int
	steps    []level // from each level's time on, n requests were in flight
	rises    []level // each new most: the ramp-up, labelled in the picture
}

type level struct {
	at time.Duration
	n  int
}

func (r *ramp) peak() int { return r.rises[len(r.rises)-1].n }

// maxHostLanes is how many hosts get a lane: the ones with the most
// requests. A crawl of a hundred hosts would otherwise be all ramps.
const maxHostLanes = 8

// ramps are the hosts' ramps, the busiest maxHostLanes of them, in the
// order of their first request; hidden is how many more hosts there were.
// Bars without a Host are in none.
func ramps(bars []Bar) (shown []ramp, hidden int) {
	type edge struct {
		at    time.Duration
		delta int
	}
	edges := map[string][]edge{}
	for _, b := range bars {
		if b.Host != "" {
			edges[b.Host] = append(edges[b.Host], edge{b.Start, +1}, edge{b.End(), -1})
		}
	}
	var all []ramp
	for host, es := range edges {
		// At equal times an end comes before a start: a connection
		// handed from one request to the next is not two in flight.
		slices.SortFunc(es, func(a, b edge) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.delta, b.delta)) })
		r := ramp{host: host, requests: len(es) / 2}
		n := 0
		for _, e := range es {
			n += e.delta
			if k := len(r.steps); k > 0 && r.steps[k-1].at == e.at {
				r.steps[k-1].n = n
			} else {
				r.steps = append(r.steps, level{e.at, n})
			}
			if len(r.rises) == 0 || n > r.peak() {
				r.rises = append(r.rises, level{e.at, n})
			}
		}
		all = append(all, r)
	}
	slices.SortFunc(all, func(a, b ramp) int {
		return cmp.Or(cmp.Compare(b.requests, a.requests), strings.Compare(a.host, b.host))
	})
	if len(all) > maxHostLanes {
		hidden = len(all) - maxHostLanes
		all = all[:maxHostLanes]
	}
	slices.SortFunc(all, func(a, b ramp) int {
		return cmp.Or(cmp.Compare(a.steps[0].at, b.steps[0].at), strings.Compare(a.host, b.host))
	})
	return all, hidden
}

// describe is the ramp's tooltip: when each new most was reached.
func (r *ramp) describe(t0 time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d requests, at most %d in flight at once. Reached", r.host, r.requests, r.peak())
	for i, l := range r.rises {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d at %v", l.n, round(l.at-t0))
	}
	return b.String()
}

// round keeps three significant digits or so: a tooltip is for reading.
func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}
