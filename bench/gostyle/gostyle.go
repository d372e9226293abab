// Package gostyle holds the three ways Go programmers spread requests over
// goroutines, written once, so that every client that runs on Go's
// scheduler — net/http (bench/baseline), loopkit's own HTTP/1.1 code over
// net.Conn (bench/conns), the hand-written floor (bench/floor) — is
// scheduled by exactly the same code. A difference between two of them is
// then their HTTP client's, never their scheduling's.
//
//   - Workers: one goroutine per connection (net/http: per pool slot),
//     each looping over requests. For loopkit's code this is "a goroutine
//     per keep-alive net.Conn"; for net/http the "worker pool".
//   - PerRequest with a semaphore: a goroutine per request, each taking a
//     slot of a buffered channel before its request — the channel
//     semaphore as usually written, every waiting goroutine alive.
//   - PerRequest without one: a goroutine per request, bounded only by the
//     connection pool, where the goroutines queue ("unbounded gather").
//
// For every job mode (see bench/workload) each style does what its name
// says; where a mode forces a choice, the comment at the function says
// which and why. It sits under the variant packages and over
// bench/workload and bench/crawlrules.
package gostyle

import (
	"loopkit/bench/crawlrules"
)

// Get fetches url and returns the response, its body read to the end.
type Get func(url string) (crawlrules.Response, error)

// NewWorker returns the Get of one worker goroutine and what to call when
// the worker ends. A client with a connection per worker dials it here;
// a client shared by all workers (net/http's) returns the same Get each
// time.
type NewWorker func() (Get, func())

// fetch is one request of a fetch job, its answer tallied by the caller.
func fetch(get Get, url string) (int, error) {
	r, err := get(url)
	return r.Status, err
}
