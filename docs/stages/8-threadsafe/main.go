// Stage 8: waking the loop from another goroutine.
//
// Work that computes (hashing, parsing, compressing) must not run on the
// loop (stage 7), so it goes to other goroutines. But the loop belongs to
// one goroutine, and it may be asleep in epoll_wait with nothing to wake
// it: a result put in some shared queue could wait there for ever. So
// another goroutine may call exactly one loop method, CallSoonThreadsafe:
// it queues a callback under a lock and wakes the loop by writing to a
// file descriptor the poller watches (an eventfd on Linux, a pipe
// elsewhere) — asyncio's call_soon_threadsafe, which writes a byte to a
// socketpair. The callback then runs on the loop, where touching loop
// state is safe again.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"loopkit/crawler/http1"
	"loopkit/docs/stages/internal/demo"
	"loopkit/future"
	"loopkit/loop"
)

func main() {
	if err := run(os.Stdout, 20, 20*time.Millisecond, 3); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// page is a fetched page on its way to a worker.
type page struct {
	path string
	body []byte
}

// worker counts the words of each page it is given, off the loop, and
// posts the count back to the loop. It must not touch the loop's state
// itself: only the callback it posts does, and that runs on the loop.
func worker(id int, l *loop.Loop, pages <-chan page, report func(path string, words, worker int)) {
	for p := range pages {
		words := len(bytes.Fields(p.body))
		if err := l.CallSoonThreadsafe(func() { report(p.path, words, id) }); err != nil {
			return // the loop has closed: nobody is listening
		}
	}
}

// run fetches pages pages from a server that takes latency to answer
// each, and has workers goroutines count their words.
func run(w io.Writer, pages int, latency time.Duration, workers int) error {
	server, err := demo.Start(latency, pages)
	if err != nil {
		return err
	}
	defer server.Close()
	l, err := loop.New(nil)
	if err != nil {
		return err
	}
	defer l.Close()
	client := http1.NewClient(l, http1.Options{})
	defer client.Close()

	// Room for every page, so that handing one over never blocks the loop.
	todo := make(chan page, pages)
	remaining, failed := pages, 0
	report := func(path string, words, worker int) { // runs on the loop
		fmt.Fprintf(w, "%s: %d words, counted by worker %d\n", path, words, worker)
		if remaining--; remaining == 0 {
			l.Stop()
		}
	}
	var running sync.WaitGroup
	for id := range workers {
		running.Add(1)
		go func() {
			defer running.Done()
			worker(id+1, l, todo, report)
		}()
	}
	defer running.Wait() // runs second: the workers have ended before the loop closes
	defer close(todo)    // runs first: no more pages

	for _, path := range server.Paths {
		client.Do(http1.Request{URL: server.URL() + path[1:]}).AddDoneCallback(func(f *future.Future[*http1.Reply]) {
			reply, err := f.Result()
			if err == nil && reply.StatusCode != 200 {
				err = fmt.Errorf("status %d", reply.StatusCode)
			}
			if err != nil {
				fmt.Fprintf(w, "%s: failed: %v\n", path, err)
				failed++
				report(path, 0, 0)
				return
			}
			todo <- page{path, reply.Body}
		})
	}
	start := time.Now()
	if err := l.Run(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d pages fetched on the loop and counted by %d goroutines in %v\n",
		pages, workers, time.Since(start).Round(time.Millisecond))
	if failed > 0 {
		return fmt.Errorf("%d fetches failed", failed)
	}
	return nil
}
