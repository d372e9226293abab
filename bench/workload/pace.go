package workload

import (
	"math"
	"time"
)

// Pacer hands out the arrivals of an open-loop job: request i is due at
// i/Rate seconds, from 0 until Warmup+Duration, whatever became of the
// ones before it. It is not safe for concurrent use: one dispatcher owns
// it, a goroutine or a loop timer.
type Pacer struct {
	m        *Meter
	interval float64 // ns between arrivals
	next, n  int64
}

// Pacer returns the pacer of m's job.
func (m *Meter) Pacer() *Pacer {
	interval := 1e9 / m.job.Rate
	return &Pacer{m: m, interval: interval, n: int64(math.Ceil(float64(m.end) / interval))}
}

// Arrivals is the number of requests the job will have been due in all.
func (p *Pacer) Arrivals() int64 { return p.n }

func (p *Pacer) at(i int64) time.Duration { return time.Duration(float64(i) * p.interval) }

// Due calls send with the due time of every arrival due by now (a Meter
// time) not yet sent, in order, and returns when the next one is due; done
// is true when none are left. Every due time is sent, however late the
// dispatcher woke: a timer that fires late delays requests, it must not
// drop them, or the latency of exactly the worst moments would go unseen.
func (p *Pacer) Due(now time.Duration, send func(intended time.Duration)) (next time.Duration, done bool) {
	for ; p.next < p.n && p.at(p.next) <= now; p.next++ {
		send(p.at(p.next))
	}
	if p.next >= p.n {
		return 0, true
	}
	return p.at(p.next), false
}

// Pace is the dispatcher for variants on Go's runtime: it calls send for
// every arrival, sleeping until each is due, and returns after the last.
// send must not block for long (hand the request to a worker or start a
// goroutine): the time it takes delays the next arrivals, and although
// their latency still counts from when they were due, a dispatcher that
// blocks measures itself, not the client.
func (m *Meter) Pace(send func(intended time.Duration)) {
	p := m.Pacer()
	for {
		next, done := p.Due(m.Now(), send)
		if done {
			return
		}
		if wait := next - m.Now(); wait > 0 {
			time.Sleep(wait)
		}
	}
}
