// Stage 3: an event loop with callbacks.
//
// Instead of asking a socket again and again whether it is ready, we tell
// the loop what we are waiting for and what to call when it happens:
// AddWriter(fd, f.connected) means "when fd is writable, call
// f.connected". The loop asks the kernel about every socket at once (one
// epoll_wait) and sleeps until one of them is ready, so twenty fetches
// wait at the same time and the CPU rests meanwhile.
//
// The price is "stack ripping". In stages 1 and 2 the state of a fetch
// lived in local variables, and where the fetch had got to was simply the
// line being run. A callback returns to the loop after each step, which
// tears that stack down; so the state moves into the fields of a Fetcher,
// and where the fetch has got to is which callback is registered.
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"loopkit/docs/stages/internal/demo"
	"loopkit/loop"
	"loopkit/netpoll"
)

func main() {
	if err := run(os.Stdout, 20, 50*time.Millisecond); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Fetcher is one fetch in progress. Every field is state that stage 1
// kept on its stack.
type Fetcher struct {
	loop     *loop.Loop
	server   *demo.Server
	path     string
	fd       int
	request  []byte // what is still to be sent
	response []byte // what has arrived so far
	done     func(f *Fetcher, err error)
}

// Fetch starts connecting and returns at once; the loop does the rest.
func (f *Fetcher) Fetch() {
	fd, err := netpoll.Socket(f.server.Addr)
	if err != nil {
		f.done(f, err)
		return
	}
	f.fd = fd
	if err := netpoll.Connect(fd, f.server.Addr); err != nil && err != netpoll.ErrInProgress {
		f.finish(err)
		return
	}
	if err := f.loop.AddWriter(fd, f.connected); err != nil {
		f.finish(err)
	}
}

// connected runs when the socket first becomes writable: the handshake is
// over, one way or the other, and only SO_ERROR says which.
func (f *Fetcher) connected() {
	if err := netpoll.ConnectResult(f.fd); err != nil {
		f.finish(err)
		return
	}
	f.request = f.server.Request(f.path)
	f.sendRequest()
}

// sendRequest writes what the socket takes. A request this small almost
// always fits at once, but a write may take only part of it, and then the
// rest must wait for room: the chapter's version assumes it never happens.
func (f *Fetcher) sendRequest() {
	n, err := netpoll.Write(f.fd, f.request)
	if err != nil && err != netpoll.ErrWouldBlock {
		f.finish(err)
		return
	}
	if f.request = f.request[n:]; len(f.request) > 0 {
		if err := f.loop.AddWriter(f.fd, f.sendRequest); err != nil { // replaces connected
			f.finish(err)
		}
		return
	}
	f.loop.RemoveWriter(f.fd)
	if err := f.loop.AddReader(f.fd, f.readResponse); err != nil {
		f.finish(err)
	}
}

// readBuf is shared by every Fetcher: callbacks run one at a time, on the
// loop's goroutine, and each copies out what it read before it returns.
var readBuf = make([]byte, 4096)

// readResponse runs each time the socket is readable, until EOF. One read
// per call: if more is waiting, the loop calls again (level-triggered).
func (f *Fetcher) readResponse() {
	n, err := netpoll.Read(f.fd, readBuf)
	switch {
	case err == netpoll.ErrWouldBlock:
		return // woken for nothing; wait for the next readiness
	case err != nil:
		f.finish(err)
	case n == 0:
		f.finish(nil) // the server closed: the response is complete
	default:
		f.response = append(f.response, readBuf[:n]...)
	}
}

// finish stops watching the socket, closes it, and reports.
func (f *Fetcher) finish(err error) {
	f.loop.RemoveReader(f.fd)
	f.loop.RemoveWriter(f.fd)
	netpoll.Close(f.fd)
	f.done(f, err)
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
	done := func(f *Fetcher, err error) {
		if !demo.Print(w, f.path, f.response, err) {
			failed++
		}
		if remaining--; remaining == 0 {
			l.Stop()
		}
	}
	for _, path := range server.Paths {
		f := &Fetcher{loop: l, server: server, path: path, done: done}
		f.Fetch()
	}
	if err := l.Run(); err != nil { // returns when the last fetch calls Stop
		return err
	}
	fmt.Fprintf(w, "fetched %d pages in %v, all at once, on %s (%d failed)\n",
		pages, time.Since(start).Round(time.Millisecond), l.PollerName(), failed)
	fmt.Fprintf(w, "server saw at most %d request(s) at once\n", server.Peak())
	if failed > 0 {
		return fmt.Errorf("%d fetches failed", failed)
	}
	return nil
}
