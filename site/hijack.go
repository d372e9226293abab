package site

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// /drop and /reset-mid-body take the connection away from net/http (Hijack) to break it
// in ways a well-behaved server never would. http.Server.Shutdown no longer tracks a
// hijacked connection, so these handlers pass through a gate that Close waits on.

// /drop?id=X&times=N closes the connection without a word for the first N requests
// for id X, then answers 200.
func (s *Site) serveDrop(h int, w http.ResponseWriter, r *http.Request) {
	id, times, ok := idAndCount(w, r.URL.Query(), "times")
	if !ok {
		return
	}
	if s.faults.next(h, "drop", id) >= times {
		respond(w, http.StatusOK, ctText, okBody)
		return
	}
	if !s.gate.enter() {
		panic(http.ErrAbortHandler) // closing: dropping is what was asked anyway
	}
	defer s.gate.leave()
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // cannot hijack (HTTP/2, a test recorder): abort instead
	}
	conn.Close()
}

// midBodyLength is the Content-Length that /reset-mid-body declares; it sends half.
const midBodyLength = 2000

var (
	midBodyHead = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n" +
		"Content-Length: " + strconv.Itoa(midBodyLength) + "\r\n\r\n"
	// midBody is a page of exactly midBodyLength bytes, of which only the first half is sent.
	midBody = ("<!DOCTYPE html>\n<html><body><p>" + strings.Repeat("Half a page. ", midBodyLength/13))[:midBodyLength]
)

// /reset-mid-body sends the headers and half the declared body, then resets the
// connection: with SO_LINGER set to 0, close sends a TCP RST instead of a FIN. A client
// must report an error, never hand on half a page as if it were the whole.
func (s *Site) serveResetMidBody(w http.ResponseWriter, _ *http.Request) {
	if !s.gate.enter() {
		panic(http.ErrAbortHandler)
	}
	defer s.gate.leave()
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	defer conn.Close()
	buf.WriteString(midBodyHead)
	buf.WriteString(midBody[:midBodyLength/2])
	if buf.Flush() != nil {
		return
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		tcp.SetLinger(0) // if this fails, the close below sends a FIN: still a short body
	}
}

// gate counts the hijacking handlers still running and lets Close wait for them. It is
// a WaitGroup that refuses to be entered once closing, so an Add can never race the Wait.
type gate struct {
	mu      sync.Mutex
	running int
	closed  bool
	idle    chan struct{} // closed when closed and running has dropped to 0
}

func (g *gate) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.running++
	return true
}

func (g *gate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running--
	if g.closed && g.running == 0 {
		close(g.idle)
	}
}

// closeAndWait shuts the gate and waits for the handlers inside to leave.
func (g *gate) closeAndWait() {
	g.mu.Lock()
	g.closed = true
	g.idle = make(chan struct{})
	if g.running == 0 {
		close(g.idle)
	}
	idle := g.idle
	g.mu.Unlock()
	<-idle
}
