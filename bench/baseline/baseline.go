// Package baseline holds the three benchmark variants written the way Go
// programmers write HTTP clients, on net/http:
//
//   - WorkerPool: a fixed number of goroutines making requests: the
//     idiomatic Go answer, and the strongest of the three;
//   - ChannelSemaphore: a goroutine per request, each taking a slot of a
//     buffered channel before it sends its request;
//   - GoroutinePerRequest: a goroutine per request, bounded only by the
//     connection pool (Transport.MaxConnsPerHost), where they queue.
//
// The goroutines are scheduled by bench/gostyle, the same code that
// schedules loopkit's own HTTP/1.1 code over net.Conn (bench/conns): the
// two packages differ only in their HTTP client, which is what the
// benchmark's "HTTP client" group compares.
//
// Every Transport keeps as many connections as the job allows requests in
// flight, no more and no fewer (MaxConnsPerHost and MaxIdleConnsPerHost,
// whose default of 2 would otherwise close and reopen connections all run
// long), so every variant holds the same number of keep-alive connections
// to the site.
//
// Note what this compares. Go's net package is non-blocking too: its
// sockets sit on the runtime's own epoll (kqueue) poller, and a goroutine
// "blocked" in Read is parked by the scheduler. So these are two
// schedulers side by side, loopkit's loop and the Go runtime's, not
// blocking I/O against non-blocking I/O.
//
// bench/ may import net/http; the library packages under it never do.
package baseline

import (
	"context"
	"io"
	"net"
	"net/http"
	"time"

	"loopkit/bench/crawlrules"
	"loopkit/bench/gostyle"
	"loopkit/bench/workload"
)

// WorkerPool runs job on job.Limit() goroutines sharing one client.
func WorkerPool(job workload.Job, m *workload.Meter) error {
	return run(job, m, func(get gostyle.Get) error {
		return gostyle.Workers(job, m, func() (gostyle.Get, func()) { return get, func() {} })
	})
}

// ChannelSemaphore runs job with a goroutine per request, each gated by a
// buffered channel of job.Limit() slots.
func ChannelSemaphore(job workload.Job, m *workload.Meter) error {
	return run(job, m, func(get gostyle.Get) error { return gostyle.PerRequest(job, m, get, true) })
}

// GoroutinePerRequest runs job with a goroutine per request; the
// connection pool is the only gate.
func GoroutinePerRequest(job workload.Job, m *workload.Meter) error {
	return run(job, m, func(get gostyle.Get) error { return gostyle.PerRequest(job, m, get, false) })
}

// run checks job and runs schedule with the Get of a client made for it,
// whose connections it closes after. Requests carry the meter's context,
// which only an open-loop job's expiry ever cancels: a closed loop makes
// exactly the requests http.Client.Get would.
func run(job workload.Job, m *workload.Meter, schedule func(gostyle.Get) error) error {
	if err := job.Check(); err != nil {
		return err
	}
	c := newClient(job)
	defer c.CloseIdleConnections()
	ctx := m.Context()
	return schedule(func(url string) (crawlrules.Response, error) { return get(ctx, c, url) })
}

// newClient returns a client for job, with the same timeouts as
// crawler/http1's defaults and no redirects followed: like loopkit's
// client, it hands a redirect back for the crawl to follow itself.
func newClient(job workload.Job) *http.Client {
	limit := job.Limit()
	return &http.Client{
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
			MaxConnsPerHost:     limit,
			MaxIdleConnsPerHost: limit,
			IdleConnTimeout:     30 * time.Second,
		},
		Timeout:       2 * time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// get fetches url, body and all: read to the end, so that the connection
// goes back to the pool.
func get(ctx context.Context, c *http.Client, url string) (crawlrules.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return crawlrules.Response{}, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return crawlrules.Response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return crawlrules.Response{}, err
	}
	return crawlrules.Response{
		Status:      resp.StatusCode,
		ContentType: resp.Header.Get("Content-Type"),
		Location:    resp.Header.Get("Location"),
		Body:        body,
	}, nil
}
