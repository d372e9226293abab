// Stage 2: a non-blocking socket, and the wrong way to wait for it.
//
// A non-blocking socket never makes us wait: a call that cannot proceed
// returns at once and says so (EINPROGRESS for connect, EAGAIN for read
// and write; netpoll calls them ErrInProgress and ErrWouldBlock). But this
// program has nothing else to do, so it asks again, and again. It gets
// its pages, one at a time as before, and burns a CPU core doing it.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"loopkit/docs/stages/internal/demo"
	"loopkit/netpoll"
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

	start, cpuStart := time.Now(), cpuTime()
	total := 0
	for _, path := range server.Paths {
		response, spins, err := fetch(server, path)
		total += spins
		if !demo.Print(w, path, response, err) {
			return fmt.Errorf("fetching %s failed", path)
		}
		fmt.Fprintf(w, "    after asking %d times in vain\n", spins)
	}
	elapsed, cpu := time.Since(start), cpuTime()-cpuStart
	fmt.Fprintf(w, "fetched %d pages in %v, asking in vain %d times\n", pages, elapsed.Round(time.Millisecond), total)
	fmt.Fprintf(w, "CPU used: %v, %.0f%% of one core, nearly all of it asking \"ready yet?\"\n",
		cpu.Round(time.Millisecond), 100*cpu.Seconds()/elapsed.Seconds())
	return nil
}

// fetch is stage 1's, with every wait turned into a spin. It returns the
// response and how many times it asked in vain.
func fetch(server *demo.Server, path string) (response []byte, spins int, err error) {
	fd, err := netpoll.Socket(server.Addr)
	if err != nil {
		return nil, 0, err
	}
	defer netpoll.Close(fd)
	if err := netpoll.Connect(fd, server.Addr); err != nil && err != netpoll.ErrInProgress {
		return nil, 0, err
	}
	giveUp := time.Now().Add(5 * time.Second) // a spin must be bounded too

	// Spin until the socket takes the request. While the handshake is on,
	// Linux says "would block"; macOS and the BSDs say "not connected", so
	// an error is final only once SO_ERROR says the connect failed.
	request := server.Request(path)
	for {
		n, err := netpoll.Write(fd, request)
		if err != nil && err != netpoll.ErrWouldBlock {
			if cerr := netpoll.ConnectResult(fd); cerr != nil {
				return nil, spins, cerr
			}
		}
		if request = request[n:]; len(request) == 0 {
			break
		}
		if spins++; time.Now().After(giveUp) {
			return nil, spins, errors.New("gave up sending")
		}
	}

	// Spin until the server has answered and closed (a read of 0 bytes).
	buf := make([]byte, 4096)
	for {
		n, err := netpoll.Read(fd, buf)
		switch {
		case err == netpoll.ErrWouldBlock:
			if spins++; time.Now().After(giveUp) {
				return nil, spins, errors.New("gave up reading")
			}
		case err != nil:
			return nil, spins, err
		case n == 0:
			return response, spins, nil
		default:
			response = append(response, buf[:n]...)
		}
	}
}

// cpuTime is the CPU time this process has used, user and system. The
// demo server runs in this process too, but while it waits it uses none.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
