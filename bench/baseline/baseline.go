// Package baseline holds the three benchmark variants written the way Go
// programmers write HTTP clients, on net/http, which bench/reactor's
// variants on loopkit are measured against:
//
//   - GoroutinePerRequest: one goroutine per URL, all started at once, the
//     source article's "unbounded gather". The only bound is the
//     connection pool (Transport.MaxConnsPerHost), where the goroutines
//     queue.
//   - ChannelSemaphore: one goroutine per URL, all started at once, each
//     taking a slot in a buffered channel before it sends its request:
//     the pattern as usually written, with every waiting goroutine alive.
//   - WorkerPool: a fixed number of goroutines taking URLs from a channel:
//     the idiomatic Go answer, and the strongest of the three.
//
// Every variant's Transport keeps as many connections as the job allows
// requests in flight, no more and no fewer (MaxConnsPerHost and
// MaxIdleConnsPerHost, whose default of 2 would otherwise close and
// reopen connections all run long), so all five variants, these and the
// reactor's, hold the same number of keep-alive connections to the site.
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
	"io"
	"net"
	"net/http"
	"time"

	"loopkit/bench/frontier"
	"loopkit/bench/workload"
)

// newClient returns a client for job, with the same timeouts as
// crawler/http1's defaults and no redirects followed: like the reactor's
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

// fetch gets url and drops the body, which it reads to the end so that
// the connection goes back to the pool.
func fetch(c *http.Client, url string) (status int, err error) {
	resp, err := c.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// fetchPage gets url for a crawl, body and all.
func fetchPage(c *http.Client, url string) (frontier.Response, error) {
	resp, err := c.Get(url)
	if err != nil {
		return frontier.Response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return frontier.Response{}, err
	}
	return frontier.Response{
		Status:      resp.StatusCode,
		ContentType: resp.Header.Get("Content-Type"),
		Location:    resp.Header.Get("Location"),
		Body:        body,
	}, nil
}
