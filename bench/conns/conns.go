// Package conns holds the fair goroutine answer: the benchmark variants
// that run loopkit's own HTTP/1.1 code — http1.ParseTarget, the request
// bytes of http1.AppendRequest, the incremental http1.Parser — on
// goroutines over net.Conn, instead of on the event loop.
//
// A request here does the same HTTP work as one of crawler/http1's Client
// on the loop: parse the URL, write the same request head, feed the same
// parser, keep the connection alive. So the difference between these
// variants and bench/reactor's is the scheduler, and nothing else: Go's
// runtime parking a goroutine in Read against loopkit's loop calling a
// callback. And the difference between these and bench/baseline's is the
// HTTP client, since both are scheduled by the same code (bench/gostyle).
//
//   - PerConn: a goroutine per keep-alive connection, looping over
//     requests: the way Go servers and proxies hold connections.
//   - Semaphore and PerRequest: a goroutine per request, with a channel
//     semaphore or bounded only by a small pool of connections.
package conns

import (
	"loopkit/bench/crawlrules"
	"loopkit/bench/gostyle"
	"loopkit/bench/workload"
)

// PerConn runs job on job.Limit() goroutines, each with a connection of
// its own.
func PerConn(job workload.Job, m *workload.Meter) error {
	if err := job.Check(); err != nil {
		return err
	}
	h, err := hostOf(job.URL)
	if err != nil {
		return err
	}
	return gostyle.Workers(job, m, func() (gostyle.Get, func()) {
		c := newConn(h)
		return c.get, c.close
	})
}

// Semaphore runs job with a goroutine per request, each taking a slot of
// a channel semaphore, then a connection from the pool.
func Semaphore(job workload.Job, m *workload.Meter) error {
	return perRequest(job, m, true)
}

// PerRequest runs job with a goroutine per request, bounded only by the
// pool's job.Limit() connections.
func PerRequest(job workload.Job, m *workload.Meter) error {
	return perRequest(job, m, false)
}

func perRequest(job workload.Job, m *workload.Meter, semaphore bool) error {
	if err := job.Check(); err != nil {
		return err
	}
	h, err := hostOf(job.URL)
	if err != nil {
		return err
	}
	p := newPool(h, job.Limit(), m.Expiry())
	defer p.close()
	return gostyle.PerRequest(job, m, p.get, semaphore)
}

// pool lends connections to the goroutines of the per-request variants:
// at most limit exist, and a goroutine that finds none idle and the limit
// reached waits for one, as it would in net/http's Transport.
type pool struct {
	host   host
	idle   chan *conn    // returned connections, newest last
	slots  chan struct{} // one per connection made
	expiry <-chan struct{}
}

// newPool returns a pool of at most limit connections to host. A wait for
// a connection ends when expiry closes (an open-loop job that fell too far
// behind; nil for others), as net/http's does when its context is done.
func newPool(h host, limit int, expiry <-chan struct{}) *pool {
	return &pool{host: h, idle: make(chan *conn, limit), slots: make(chan struct{}, limit), expiry: expiry}
}

func (p *pool) get(url string) (crawlrules.Response, error) {
	c := p.take()
	if c == nil {
		return crawlrules.Response{}, workload.ErrGaveUp
	}
	defer func() { p.idle <- c }() // a broken one redials on its next use
	return c.get(url)
}

// take returns an idle connection, or makes one if the limit allows, or
// waits for one to be returned; nil if the wait expired.
func (p *pool) take() *conn {
	select {
	case c := <-p.idle:
		return c
	default:
	}
	select {
	case c := <-p.idle:
		return c
	case p.slots <- struct{}{}:
		return newConn(p.host)
	case <-p.expiry:
		return nil
	}
}

func (p *pool) close() {
	for {
		select {
		case c := <-p.idle:
			c.close()
		default:
			return
		}
	}
}
