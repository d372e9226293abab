// Package canned is a test web server for allocation benchmarks: it
// answers every request with the same bytes, the demo site's answer to
// /delay?ms=0, and once a connection is open it allocates nothing.
//
// That matters because Go counts allocations per process, not per
// goroutine: testing's -benchmem and AllocsPerRun count the server's
// allocations too when it runs in the test's own process. A server that
// allocates nothing leaves the client's count exact. TestNoAllocations
// checks that it does.
//
// It is not an HTTP server worth the name: a request is whatever ends
// with an empty line (it has no body, as a GET has none), and nothing in
// it is read. It listens on 127.0.0.1 only.
package canned

import (
	"bytes"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
)

// Response is what every request gets: the demo site's /delay?ms=0, as
// net/http writes it.
const Response = "HTTP/1.1 200 OK\r\n" +
	"Content-Length: 3\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\n" +
	"Date: Tue, 01 Dec 2026 15:47:03 GMT\r\n" +
	"\r\n" +
	"ok\n"

// Server is a running canned server.
type Server struct {
	ln       net.Listener
	requests atomic.Int64
	conns    sync.WaitGroup
	mu       sync.Mutex
	open     map[net.Conn]bool
}

// Start starts a server on 127.0.0.1 and closes it when the test ends.
func Start(tb testing.TB) *Server {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := &Server{ln: ln, open: make(map[net.Conn]bool)}
	go s.accept()
	tb.Cleanup(s.Close)
	return s
}

// URL is the server's URL for /delay?ms=0.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/delay?ms=0" }

// Addr is host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Requests is how many requests the server has answered.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Close stops accepting, closes every connection and waits for their
// goroutines.
func (s *Server) Close() {
	s.ln.Close()
	s.mu.Lock()
	for c := range s.open {
		c.Close()
	}
	s.mu.Unlock()
	s.conns.Wait()
}

func (s *Server) accept() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.open[c] = true
		s.mu.Unlock()
		s.conns.Add(1)
		go s.serve(c)
	}
}

var endOfHead = []byte("\r\n\r\n")

// serve answers the requests of one connection, in order, pipelined or
// not. Its buffers are made once; after that a request costs two system
// calls and no allocation.
func (s *Server) serve(c net.Conn) {
	defer s.conns.Done()
	defer func() {
		s.mu.Lock()
		delete(s.open, c)
		s.mu.Unlock()
		c.Close()
	}()
	buf := make([]byte, 16<<10)
	out := make([]byte, 0, 8*len(Response))
	have := 0
	for {
		n, err := c.Read(buf[have:])
		have += n
		// Answer every whole request in the buffer at once.
		out = out[:0]
		done := 0
		for {
			i := bytes.Index(buf[done:have], endOfHead)
			if i < 0 {
				break
			}
			done += i + len(endOfHead)
			out = append(out, Response...)
			s.requests.Add(1)
		}
		have = copy(buf, buf[done:have])
		if len(out) > 0 {
			if _, werr := c.Write(out); werr != nil {
				return
			}
		}
		// EOF, a reset, Close: the client went away, as clients do. A
		// full buffer without a whole request is not one of ours.
		if err != nil || have == len(buf) {
			return
		}
	}
}

// MeasureCPU starts measuring the process's CPU time (user and system,
// getrusage) and returns a function that reports it per operation as
// "cpu-ns/op", beside testing's ns/op. On a machine shared with other
// work, wall time per operation swings with the neighbours; CPU time
// much less. It is the whole process's: the server's share is in it too,
// and the same for every client, so differences between clients are
// theirs. Call the function once, when the timed work is over.
func MeasureCPU(b *testing.B) (report func()) {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
