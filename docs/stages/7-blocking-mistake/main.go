// Stage 7: the blocking mistake.
//
// Twenty requests arrive together, and each needs 100 ms of something
// after its page has come back. How long do all twenty take? It depends
// entirely on what the 100 ms is, and on what it holds while it lasts:
//
//   - a blocking call inside a task (time.Sleep here; in real programs a
//     synchronous database driver, a file read, a mutex, a heavy parse)
//     holds the loop's only goroutine: nothing else runs, and the twenty
//     waits add up, as in stage 1;
//   - a wait that goes through the loop (task.Sleep is a loop timer)
//     holds nothing: the task is suspended and the twenty waits overlap;
//   - a blocking call handed to loop.RunInExecutor runs on a goroutine of
//     its own; the task awaits its future, and the loop stays free.
//
// A heartbeat timer shows what each does to everything else on the loop:
// it should tick every 10 ms, and the program prints its longest gap.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"loopkit/crawler/http1"
	"loopkit/docs/stages/internal/demo"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

func main() {
	if err := run(os.Stdout, 20, 100*time.Millisecond); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// ways are three ways to spend the work after a fetch.
var ways = []struct {
	name string
	do   func(y task.Yield, d time.Duration) error
}{
	{"time.Sleep in the task (blocks the loop)", func(y task.Yield, d time.Duration) error {
		time.Sleep(d)
		return nil
	}},
	{"task.Sleep (a timer: the task waits, the loop does not)", func(y task.Yield, d time.Duration) error {
		return task.Sleep(y, d)
	}},
	{"loop.RunInExecutor (the blocking call on its own goroutine)", func(y task.Yield, d time.Duration) error {
		_, err := task.Await(y, loop.RunInExecutor(y.Loop(), func(ctx context.Context) (struct{}, error) {
			time.Sleep(d)
			return struct{}{}, nil
		}))
		return err
	}},
}

// run handles requests requests, each a fetch and then work, three ways.
func run(w io.Writer, requests int, work time.Duration) error {
	server, err := demo.Start(0, requests)
	if err != nil {
		return err
	}
	defer server.Close()
	for _, way := range ways {
		start := time.Now()
		ok, gap, longest, err := handleAll(server, way.do, work)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s:\n    %d of %d requests ok in %v; heartbeat due every 10ms, longest gap %v; longest callback %v\n",
			way.name, ok, requests, time.Since(start).Round(time.Millisecond), gap.Round(time.Millisecond),
			longest.Round(100*time.Microsecond))
	}
	return nil
}

// handleAll starts a task per request on a fresh loop: fetch a page, then
// do the work. It returns how many requests got a 200, the longest gap
// between two heartbeats, and the loop's longest callback (loop.Stats).
func handleAll(server *demo.Server, do func(task.Yield, time.Duration) error, work time.Duration) (int, time.Duration, time.Duration, error) {
	l, err := loop.New(&loop.Options{Stats: true})
	if err != nil {
		return 0, 0, 0, err
	}
	defer l.Close()
	client := http1.NewClient(l, http1.Options{})
	defer client.Close()
	beat := &heartbeat{loop: l, every: 10 * time.Millisecond}
	ok, err := task.Run(l, func(y task.Yield) (int, error) {
		beat.start()
		defer beat.stop()
		var handlers []future.Awaitable[int]
		for _, path := range server.Paths {
			handlers = append(handlers, task.Spawn(l, func(y task.Yield) (int, error) {
				reply, err := client.Get(y, server.URL()+path[1:])
				if err != nil {
					return 0, err
				}
				return reply.StatusCode, do(y, work)
			}))
		}
		outcomes, err := task.Gather(y, handlers...)
		ok := 0
		for _, o := range outcomes {
			if o.Err == nil && o.Value == 200 {
				ok++
			}
		}
		return ok, err
	})
	return ok, beat.worst, l.Stats().Longest, err
}

// heartbeat ticks on the loop and remembers the longest gap between two
// ticks: the longest time the loop could not run anything else.
type heartbeat struct {
	loop        *loop.Loop
	every       time.Duration
	last, worst time.Duration
	timer       *loop.Timer
}

func (h *heartbeat) start() {
	h.last = h.loop.Time()
	h.timer = h.loop.CallLater(h.every, h.tick)
}

func (h *heartbeat) tick() {
	now := h.loop.Time()
	h.worst = max(h.worst, now-h.last)
	h.last = now
	h.timer = h.loop.CallLater(h.every, h.tick)
}

func (h *heartbeat) stop() { h.timer.Cancel() }
