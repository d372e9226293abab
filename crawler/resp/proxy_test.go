package resp_test

import (
	"bytes"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// proxy stands between the client and a real redis-server: it forwards
// bytes both ways, keeps a log of every byte the client sent (the other
// side of the wire, where "was the command sent again?" is answered), and
// can cut every connection at once, as a network failure would.
type proxy struct {
	ln     net.Listener
	target string
	wg     sync.WaitGroup

	mu    sync.Mutex
	conns []net.Conn
	sent  bytes.Buffer // everything clients sent, over every connection

	// While held, what the server sends reaches the client a line at a
	// time, one line per token in release (see Hold).
	held    atomic.Bool
	release chan struct{}
	passed  atomic.Int64  // held lines passed on
	closed  chan struct{} // closed when the test ends: a held copy gives up
}

func newProxy(t testing.TB, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, release: make(chan struct{}, 1024), closed: make(chan struct{})}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() { ln.Close(); close(p.closed); p.Cut(); p.wg.Wait() })
	return p
}

// URL is the redis:// URL that goes through the proxy.
func (p *proxy) URL() string { return "redis://" + p.ln.Addr().String() + "/0" }

func (p *proxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, client, server)
		p.mu.Unlock()
		p.wg.Add(2)
		go func() {
			defer p.wg.Done()
			io.Copy(io.MultiWriter(server, logWriter{p}), client)
			server.Close()
		}()
		go func() {
			defer p.wg.Done()
			p.copyReplies(client, server)
			client.Close()
		}()
	}
}

type logWriter struct{ p *proxy }

func (w logWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	return w.p.sent.Write(b)
}

// Cut closes every connection open through the proxy; new ones may come.
func (p *proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// Inject sends b to every client connected, as if its server had sent
// it: a reply that no command asked for.
func (p *proxy) Inject(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := 0; i < len(p.conns); i += 2 { // client, server, client, server...
		p.conns[i].Write(b)
	}
}

// Count says how many times the client sent a command whose encoding
// contains s (e.g. "$4\r\nINCR\r\n").
func (p *proxy) Count(s string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bytes.Count(p.sent.Bytes(), []byte(s))
}

// Hold makes the proxy keep what the server sends from now on, and pass
// it on a line at a time: one line for each call of Release. Replies of
// one line each (INCR's ":1") then reach the client when the test says,
// however fast the server answered.
func (p *proxy) Hold() { p.held.Store(true) }

// Release lets one more held line through. It never blocks.
func (p *proxy) Release() { p.release <- struct{}{} }

// Passed is how many held lines have been written to the client.
func (p *proxy) Passed() int { return int(p.passed.Load()) }

// copyReplies copies what the server sends to the client, a line per
// Release while the proxy is held, until either side closes.
func (p *proxy) copyReplies(client, server net.Conn) {
	buf := make([]byte, 32<<10)
	var line []byte // a held line, so far
	for {
		n, err := server.Read(buf)
		b := buf[:n]
		for len(b) > 0 {
			if !p.held.Load() {
				if _, err := client.Write(b); err != nil {
					return
				}
				break
			}
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				line = append(line, b...)
				break
			}
			line, b = append(line, b[:i+1]...), b[i+1:]
			select {
			case <-p.release:
			case <-p.closed:
				return
			}
			if _, err := client.Write(line); err != nil {
				return
			}
			p.passed.Add(1)
			line = line[:0]
		}
		if err != nil {
			return
		}
	}
}
