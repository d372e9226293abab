// Stage 1: fetch pages one after another, each with a blocking socket.
//
// This is the program every later stage improves on. It is simple, and it
// is slow for one reason: while it waits for one server it cannot do
// anything else, so the waits add up.
//
// An honest note: Go's net package is not blocking underneath. conn.Read
// puts the socket in non-blocking mode, registers it with the runtime's
// epoll (or kqueue) poller and parks the goroutine; the runtime runs other
// goroutines meanwhile. It is the goroutine that blocks, not the thread.
// With one goroutine, the effect is the same as a blocking socket.
package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"loopkit/docs/stages/internal/demo"
)

func main() {
	if err := run(os.Stdout, 20, 50*time.Millisecond); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run fetches pages pages from a server that takes latency to answer each.
func run(w io.Writer, pages int, latency time.Duration) error {
	server, err := demo.Start(latency, pages)
	if err != nil {
		return err
	}
	defer server.Close()

	start := time.Now()
	for _, path := range server.Paths {
		response, err := fetch(server, path)
		if !demo.Print(w, path, response, err) {
			return fmt.Errorf("fetching %s failed", path)
		}
	}
	fmt.Fprintf(w, "fetched %d pages in %v, one at a time (%v of waiting each)\n",
		pages, time.Since(start).Round(time.Millisecond), latency)
	fmt.Fprintf(w, "server saw at most %d request(s) at once\n", server.Peak())
	return nil
}

// fetch connects, sends the request, and reads until the server closes
// the connection. Each of the three calls waits, and nothing else happens
// while it does.
func fetch(server *demo.Server, path string) ([]byte, error) {
	conn, err := net.Dial("tcp", server.Host)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.Write(server.Request(path)); err != nil {
		return nil, err
	}
	return io.ReadAll(conn)
}
