// Command timelines draws the experiment of an article on polite crawling
// with asyncio and httpx — 60 requests to a server that takes 200 ms each —
// run twice, with a Semaphore(5) in front of the requests and with none,
// as one picture on one time axis. The picture in the tutorial is its
// output:
//
//	go run ./docs/timelines            # writes semaphore-and-unbounded.svg here
//
// Each request goes through loopkit's HTTP client with a Trace, so every
// bar is one request on the connection that carried it; the loop's own
// trace (loop.Options.Trace) draws the lane of the loop above them.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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
	if _, err := run(os.Stdout, dir, 60, 200*time.Millisecond); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run draws n requests of delay each, with a semaphore of 5 and with
// none, as two sections of one chart, and returns the chart.
func run(w io.Writer, dir string, n int, delay time.Duration) (timeline.Chart, error) {
	chart := timeline.Chart{Title: fmt.Sprintf("%d requests to a server that takes %v for each, on one time axis", n, delay)}
	for _, limit := range []int{5, n} {
		name := "Semaphore(5)"
		if limit == n {
			name = "no limit"
		}
		section, peak, took, err := fetchAll(n, limit, delay)
		if err != nil {
			return chart, err
		}
		section.Title = fmt.Sprintf("%s: %v, peak %d in flight at the server", name, took.Round(10*time.Millisecond), peak)
		chart.Sections = append(chart.Sections, section)
		fmt.Fprintf(w, "%-12s %v, the server saw at most %d at once\n", name, took.Round(10*time.Millisecond), peak)
	}
	f, err := os.Create(filepath.Join(dir, "semaphore-and-unbounded.svg"))
	if err != nil {
		return chart, err
	}
	err = chart.WriteSVG(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		fmt.Fprintf(w, "drawn in %s\n", f.Name())
	}
	return chart, err
}

// fetchAll makes n requests of delay each, at most limit at a time, and
// returns them as a section of the picture — a bar per request, and the
// loop's lane — with the server's peak in-flight count and the time taken.
func fetchAll(n, limit int, delay time.Duration) (timeline.Section, int64, time.Duration, error) {
	var section timeline.Section
	server, err := site.Start(site.Config{}, "127.0.0.1:0")
	if err != nil {
		return section, 0, 0, err
	}
	defer server.Close()
	lane := &timeline.LoopLane{Name: "the loop"} // the bars are on its clock: no Offset
	l, err := loop.New(&loop.Options{Trace: lane.Add})
	if err != nil {
		return section, 0, 0, err
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
		return section, 0, 0, err
	}
	host := strings.TrimSuffix(strings.TrimPrefix(server.URL(), "http://"), "/")
	for i, tr := range traces {
		section.Bars = append(section.Bars, timeline.Bar{Lane: tr.Conn, Host: host, Label: fmt.Sprint(i),
			Detail: fmt.Sprintf("request %d, connection %d", i, tr.Conn),
			Queued: queued[i], Start: tr.Start, Phases: timeline.Phases(tr, false)})
	}
	section.Loops = []*timeline.LoopLane{lane}
	return section, server.Stats().PeakInFlight, took, nil
}
