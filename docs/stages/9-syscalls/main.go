// Stage 9: one fetch, down to the kernel.
//
// Stages 3 to 5 fetch twenty pages at once; this one fetches a single
// page, so that every system call of an event loop at work can be read one
// by one. It is stage 5's fetch with two things every real client has: a
// deadline (a loop timer) and work handed to another goroutine (counting
// the words, in the executor), whose result must wake the loop.
//
//	go run ./docs/stages/9-syscalls -trace   # the loop's own trace, on stderr
//	bash docs/kernel/capture.sh              # the same fetch under strace
//
// docs/kernel.md reads both, line by line. With -serve it is only the
// server, and with -addr only the client: the capture runs them as two
// processes, so that strace of the client sees nothing of the server.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"loopkit/docs/stages/internal/demo"
	"loopkit/loop"
	"loopkit/task"
)

// deadline is how long the fetch may take before the loop gives up on it.
const deadline = 10 * time.Second

func main() {
	serve := flag.Bool("serve", false, "only serve the demo site, and print its address")
	addr := flag.String("addr", "", "fetch from this server (one started with -serve) instead of starting one")
	trace := flag.Bool("trace", false, "print the loop's trace, a JSON line per turn, on stderr")
	lock := flag.Bool("lock", false, "lock the loop's goroutine to its OS thread (runtime.LockOSThread)")
	flag.Parse()
	if *serve {
		serveUntilInterrupted()
		return
	}
	var lines bytes.Buffer // printed at the end, so as not to mix with the fetch's system calls
	var tracer func(*loop.Iteration)
	if *trace {
		tracer = func(it *loop.Iteration) { lines.Write(it.AppendJSON(nil)) }
	}
	err := run(os.Stdout, *addr, 50*time.Millisecond, tracer, *lock)
	os.Stderr.Write(lines.Bytes())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run fetches the demo site's home page from addr, or from a demo server
// of its own that answers after latency, and counts its words.
func run(w io.Writer, addr string, latency time.Duration, trace func(*loop.Iteration), lockThread bool) error {
	if lockThread {
		// Before the loop and its first task exist: every coroutine of
		// the loop then runs on this thread too.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	if addr == "" {
		server, err := demo.Start(latency, 1)
		if err != nil {
			return err
		}
		defer server.Close()
		addr = server.Host
	}
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return err
	}
	l, err := loop.New(&loop.Options{Trace: trace})
	if err != nil {
		return err
	}
	defer l.Close()
	var words int
	body, err := task.Run(l, func(y task.Yield) ([]byte, error) {
		body, err := fetch(y, ap, demo.Request(addr, "/"))
		if err != nil {
			return nil, err
		}
		// Counting words is computing, not waiting: it goes to the
		// executor, a goroutine of its own, and its result comes back
		// through CallSoonThreadsafe, which wakes the sleeping loop with a
		// write to an eventfd.
		words, err = task.Await(y, loop.RunInExecutor(l, func(context.Context) (int, error) {
			return len(bytes.Fields(body)), nil
		}))
		return body, err
	})
	if err != nil {
		return err
	}
	status, err := demo.Status(body)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "GET / from %s: %d, %d bytes, %d words (counted off the loop), on %s\n",
		addr, status, len(body), words, l.PollerName())
	return nil
}

// fetch is stage 5's fetch with a deadline. If the page has not arrived in
// time, a loop timer closes the socket and the pending read fails; until
// then, the timer's only mark on the kernel is the timeout of each wait.
func fetch(y task.Yield, addr netip.AddrPort, request []byte) ([]byte, error) {
	l := y.Loop()
	fd, err := task.Await(y, l.SockConnect(addr))
	if err != nil {
		return nil, err
	}
	timer := l.CallLater(deadline, func() { l.SockClose(fd) })
	defer func() {
		if timer.Cancel() { // it has not fired: the socket is still open
			l.SockClose(fd)
		}
	}()
	if _, err := task.Await(y, l.SockSendAll(fd, request)); err != nil {
		return nil, err
	}
	buf := make([]byte, 4096)
	var response []byte
	for {
		n, err := task.Await(y, l.SockRecv(fd, buf))
		if errors.Is(err, loop.ErrSocketClosed) {
			return nil, fmt.Errorf("no answer from %v within %v", addr, deadline)
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return response, nil
		}
		response = append(response, buf[:n]...)
	}
}

// serveUntilInterrupted is -serve: the demo site in a process of its own,
// answering after 50 ms, until Ctrl-C or SIGTERM.
func serveUntilInterrupted() {
	server, err := demo.Start(50*time.Millisecond, 1)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer server.Close()
	fmt.Println(server.Host)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
}
