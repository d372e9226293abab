package resp_test

import (
	"bytes"
	"io"
	"net"
	"sync"
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
}

func newProxy(t testing.TB, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() { ln.Close(); p.Cut(); p.wg.Wait() })
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
			io.Copy(client, server)
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

// Count says how many times the client sent a command whose encoding
// contains s (e.g. "$4\r\nINCR\r\n").
func (p *proxy) Count(s string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bytes.Count(p.sent.Bytes(), []byte(s))
}
