// Stage 4: futures.
//
// A future is a result that will arrive later, with a list of callbacks to
// run when it does. The loop's socket operations return one each: connect,
// send everything, receive. The Fetcher's fields are gone — each step's
// state is captured by the closure that handles the step's future — but
// the logic is still inside out: every step is a callback nested in the
// previous one, and a loop (read until EOF) becomes a function that
// starts the next read from the callback of the last.
//
// This stage also shows the 500-lines chapter's footnote fixed: its Future
// ran callbacks only in set_result, so a callback added to a future that
// had already completed was never run. Here it is scheduled all the same,
// and the program counts how often that happened.
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"loopkit/docs/stages/internal/demo"
	"loopkit/future"
	"loopkit/loop"
)

func main() {
	if err := run(os.Stdout, 20, 50*time.Millisecond); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// alreadyDone counts futures that had completed before we added their
// callback: callbacks the chapter's Future would never have run.
var alreadyDone int

// fetch returns at once with a future of the whole response.
func fetch(l *loop.Loop, server *demo.Server, path string) *future.Future[[]byte] {
	result := future.New[[]byte](l)
	l.SockConnect(server.Addr).AddDoneCallback(func(connect *future.Future[int]) {
		fd, err := connect.Result()
		if err != nil {
			result.SetError(err)
			return
		}
		send := l.SockSendAll(fd, server.Request(path))
		if send.Done() { // the send buffer had room: done before we asked
			alreadyDone++
		}
		send.AddDoneCallback(func(send *future.Future[int]) {
			if _, err := send.Result(); err != nil {
				l.SockClose(fd)
				result.SetError(err)
				return
			}
			receiveAll(l, fd, result)
		})
	})
	return result
}

// receiveAll reads until EOF and completes result with what arrived.
func receiveAll(l *loop.Loop, fd int, result *future.Future[[]byte]) {
	buf := make([]byte, 4096)
	var response []byte
	var receive func()
	receive = func() {
		l.SockRecv(fd, buf).AddDoneCallback(func(recv *future.Future[int]) {
			n, err := recv.Result()
			switch {
			case err != nil:
				l.SockClose(fd)
				result.SetError(err)
			case n == 0:
				l.SockClose(fd)
				result.SetResult(response)
			default:
				response = append(response, buf[:n]...)
				receive() // not recursion: this callback returns, the loop calls the next
			}
		})
	}
	receive()
}

// run fetches pages pages, all at once, from a server that takes latency
// to answer each.
func run(w io.Writer, pages int, latency time.Duration) error {
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

	start := time.Now()
	remaining, failed := pages, 0
	alreadyDone = 0
	for _, path := range server.Paths {
		fetch(l, server, path).AddDoneCallback(func(f *future.Future[[]byte]) {
			response, err := f.Result()
			if !demo.Print(w, path, response, err) {
				failed++
			}
			if remaining--; remaining == 0 {
				l.Stop()
			}
		})
	}
	if err := l.Run(); err != nil {
		return err
	}
	fmt.Fprintf(w, "fetched %d pages in %v, all at once (%d failed)\n",
		pages, time.Since(start).Round(time.Millisecond), failed)
	fmt.Fprintf(w, "%d of %d sends were done before their callback was added; their callbacks ran all the same\n",
		alreadyDone, pages)
	if failed > 0 {
		return fmt.Errorf("%d fetches failed", failed)
	}
	return nil
}
