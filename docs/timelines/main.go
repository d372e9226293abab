// Command timelines draws the experiment of an article on polite crawling
// with asyncio and httpx — 60 requests to a server that takes 200 ms each —
// as two timelines: with a Semaphore(5) in front of the requests, and with
// none. The pictures in the tutorial are its output:
//
//	go run ./docs/timelines            # writes semaphore-5.svg and unbounded.svg here
//
// Each request goes through loopkit's HTTP client with a Trace, so every
// bar is one request on the connection that carried it.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"loopkit/crawler/http1"
	"loopkit/crawler/timeline"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/site"
	"loopkit/task"
)

func main() {
	dir := "docs/timelines"
	if _, err := os.Stat(dir); err != nil {
		dir = "." // run from inside the directory
	}
	if err := run(os.Stdout, dir, 60, 200*time.Millisecond); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run draws n requests of delay each, with a semaphore of 5 and with none.
func run(w io.Writer, dir string, n int, delay time.Duration) error {
	for _, limit := range []int{5, n} {
		name := "semaphore-5"
		if limit == n {
			name = "unbounded"
		}
		bars, peak, took, err := fetchAll(n, limit, delay)
		if err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(dir, name+".svg"))
		if err != nil {
			return err
		}
		title := fmt.Sprintf("%d requests × %v, %s: %v, peak %d in flight at the server", n, delay, name, took.Round(10*time.Millisecond), peak)
		err = timeline.WriteSVG(f, title, bars)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%-12s %v, the server saw at most %d at once -> %s\n", name, took.Round(10*time.Millisecond), peak, f.Name())
	}
	return nil
}

// fetchAll makes n requests of delay each, at most limit at a time, and
// returns their bars, the server's peak in-flight count and the time taken.
func fetchAll(n, limit int, delay time.Duration) ([]timeline.Bar, int64, time.Duration, error) {
	server, err := site.Start(site.Config{}, "127.0.0.1:0")
	if err != nil {
		return nil, 0, 0, err
	}
	defer server.Close()
	l, err := loop.New(nil)
	if err != nil {
		return nil, 0, 0, err
	}
	defer l.Close()
	client := http1.NewClient(l, http1.Options{MaxConnsPerHost: n}) // the pool is no limit here
	defer client.Close()
	traces := make([]http1.Trace, n)
	queued := make([]time.Duration, n) // when each asked the semaphore
	start := time.Now()
	_, err = task.Run(l, func(y task.Yield) (int, error) {
		sem := task.NewSemaphore(limit)
		var all []future.Awaitable[int]
		for i := range n {
			all = append(all, task.Spawn(l, func(y task.Yield) (int, error) {
				queued[i] = l.Time()
				if err := sem.Acquire(y); err != nil {
					return 0, err
				}
				defer sem.Release()
				url := fmt.Sprintf("%sdelay?ms=%d&i=%d", server.URL(), delay.Milliseconds(), i)
				_, err := client.Fetch(y, http1.Request{URL: url, Trace: &traces[i]})
				return 0, err
			}))
		}
		_, err := task.GatherFailFast(y, all...)
		return 0, err
	})
	took := time.Since(start)
	if err != nil {
		return nil, 0, 0, err
	}
	bars := make([]timeline.Bar, n)
	for i, tr := range traces {
		bars[i] = timeline.Bar{Lane: tr.Conn, Label: fmt.Sprint(i), Detail: fmt.Sprintf("request %d, connection %d", i, tr.Conn),
			Queued: queued[i], Start: tr.Start, Phases: timeline.Phases(tr, false)}
	}
	return bars, server.Stats().PeakInFlight, took, nil
}
