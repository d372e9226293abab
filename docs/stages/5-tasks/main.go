// Stage 5: tasks — straight-line code again, on the same loop.
//
// A task is a function that can stop in the middle and be resumed later.
// task.Await(y, f) hands the future f to the loop and suspends the task;
// when f completes, the loop resumes the task right there, and Await
// returns f's result. So fetch reads like stage 1's — connect, send,
// receive until EOF — with its state back in local variables, while the
// loop still runs any number of fetches at once.
//
// With that, "how many at a time?" becomes a few lines: a semaphore.
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"loopkit/docs/stages/internal/demo"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

func main() {
	if err := run(os.Stdout, 20, 50*time.Millisecond, 5); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// fetch is stage 4's fetch, written top to bottom.
func fetch(y task.Yield, server *demo.Server, path string) ([]byte, error) {
	l := y.Loop()
	fd, err := task.Await(y, l.SockConnect(server.Addr))
	if err != nil {
		return nil, err
	}
	defer l.SockClose(fd)
	if _, err := task.Await(y, l.SockSendAll(fd, server.Request(path))); err != nil {
		return nil, err
	}
	return receiveAll(y, fd)
}

// receiveAll is a helper that awaits, called like any function. Python
// needs "yield from" (or "await") to factor a coroutine like this, because
// a generator can suspend only its own frame; a task here runs on a stack
// of its own, so a plain call can suspend the whole chain.
func receiveAll(y task.Yield, fd int) ([]byte, error) {
	buf := make([]byte, 4096)
	var response []byte
	for {
		n, err := task.Await(y, y.Loop().SockRecv(fd, buf))
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return response, nil
		}
		response = append(response, buf[:n]...)
	}
}

// fetchAll starts a task per page, at most limit fetching at once (0: no
// limit), and gathers their outcomes in order.
func fetchAll(y task.Yield, server *demo.Server, limit int) []task.Outcome[[]byte] {
	sem := task.NewSemaphore(limit)
	var fetches []future.Awaitable[[]byte]
	for _, path := range server.Paths {
		fetches = append(fetches, task.Spawn(y.Loop(), func(y task.Yield) ([]byte, error) {
			if limit > 0 {
				if err := sem.Acquire(y); err != nil {
					return nil, err
				}
				defer sem.Release()
			}
			return fetch(y, server, path)
		}))
	}
	outcomes, _ := task.Gather(y, fetches...) // each fetch's error is in its outcome
	return outcomes
}

// run fetches pages pages twice from a server that takes latency to
// answer each: all at once, then at most limit at a time.
func run(w io.Writer, pages int, latency time.Duration, limit int) error {
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

	failed, err := task.Run(l, func(y task.Yield) (int, error) {
		failed := 0
		for _, limit := range []int{0, limit} {
			server.ResetPeak()
			start := time.Now()
			for i, o := range fetchAll(y, server, limit) {
				if !demo.Print(w, server.Paths[i], o.Value, o.Err) {
					failed++
				}
			}
			fmt.Fprintf(w, "fetched %d pages in %v with limit %d; server peak in flight: %d\n",
				pages, time.Since(start).Round(time.Millisecond), limit, server.Peak())
		}
		return failed, nil
	})
	if err == nil && failed > 0 {
		err = fmt.Errorf("%d fetches failed", failed)
	}
	return err
}
