// Package faultproxy is a TCP proxy for tests that breaks connections on
// purpose, at a chosen byte: it cuts them, stalls them, or delays what
// follows. It stands between a client and a real server (tests put it in
// front of a redis-server) and plays the network failures a client must
// survive: a reply lost half-way, a peer that hangs, a slow link, a
// network that swallows everything.
//
// internal/faultproxy is for tests only; it sits beside internal/redistest
// and uses Go's net package, since it plays the network, not loopkit.
//
// Where the faults go is a Rule's choice: it sees every chunk of bytes
// before it is forwarded, and says how much of it passes and what happens
// next. Faults places them at fixed offsets; Replies (redis.go) reads the
// RESP on the wire and places them inside the reply to chosen commands.
package faultproxy

import (
	"net"
	"sync"
	"testing"
	"time"
)

// Dir is a direction of a connection.
type Dir int

const (
	Up   Dir = iota // client to server
	Down            // server to client
)

func (d Dir) String() string {
	if d == Up {
		return "up"
	}
	return "down"
}

// Action is what a fault does to its connection.
type Action int

const (
	// Cut closes both sides of the connection: the bytes before the fault
	// went through, none after.
	Cut Action = iota
	// Stall forwards nothing more, either way, and keeps both sockets
	// open: a peer that hangs, or a network that swallows everything.
	Stall
	// Delay holds the bytes from the fault on for a while, then goes on.
	Delay
)

// Fault is what happens to a connection at a byte of one of its
// directions.
type Fault struct {
	Dir    Dir
	At     int64 // the byte's offset in that direction of the connection
	Action Action
	For    time.Duration // how long a Delay holds the bytes
}

// A Rule places faults. Chunk is called with the next bytes b of one
// direction of connection conn (numbered from 0 in the order the proxy
// accepted them), starting at offset off of that direction. It returns
// how many of them pass now, and the fault that follows them, if any. If
// pass < len(b) and there is no fault, the rest is held and comes back at
// the front of the next call, with what arrived meanwhile: a rule that
// needs more bytes to decide holds them. Chunk is called from the proxy's
// goroutines, one per direction of each connection.
type Rule interface {
	Chunk(conn int, dir Dir, off int64, b []byte) (pass int, fault *Fault)
}

// Faults is a Rule of fixed faults, each for the connection at its index
// (nil: none for that connection).
type Faults [][]Fault

func (fs Faults) Chunk(conn int, dir Dir, off int64, b []byte) (int, *Fault) {
	if conn >= len(fs) {
		return len(b), nil
	}
	for i := range fs[conn] {
		f := &fs[conn][i]
		if f.Dir == dir && f.At >= off && f.At < off+int64(len(b)) {
			return int(f.At - off), f
		}
	}
	return len(b), nil
}

// Proxy forwards connections to a target address, breaking them as its
// rule says. Its methods may be called from any goroutine.
type Proxy struct {
	ln     net.Listener
	target string
	wg     sync.WaitGroup

	mu        sync.Mutex
	rule      Rule
	conns     []*link
	accepted  int
	blackhole bool
}

// link is one proxied connection.
type link struct {
	client, server net.Conn
	closing        sync.Once
	stalling       sync.Once
	stalled        chan struct{} // closed when the link stalls
}

func (l *link) close() {
	l.closing.Do(func() {
		l.client.Close()
		l.server.Close()
	})
}

func (l *link) stall() { l.stalling.Do(func() { close(l.stalled) }) }

func (l *link) isStalled() bool {
	select {
	case <-l.stalled:
		return true
	default:
		return false
	}
}

// New starts a proxy to target on 127.0.0.1, stopped when the test ends.
// rule may be nil: then it only forwards.
func New(t testing.TB, target string, rule Rule) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: target, rule: rule}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

// Addr is where clients connect: 127.0.0.1:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// SetRule replaces the rule, for the bytes that come from now on.
func (p *Proxy) SetRule(r Rule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rule = r
}

// Accepted is how many connections the proxy accepted so far.
func (p *Proxy) Accepted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

// CutAll closes every connection open through the proxy, at once: new
// ones may come.
func (p *Proxy) CutAll() {
	p.mu.Lock()
	conns := p.conns
	p.conns = nil
	p.mu.Unlock()
	for _, l := range conns {
		l.close()
	}
}

// Blackhole cuts the client off the server without closing anything: the
// connections open now stall for good, as connections do across a
// network partition, and so does every new one until Restore. A client
// learns of it only from its own timeouts.
func (p *Proxy) Blackhole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.blackhole = true
	for _, l := range p.conns {
		l.stall()
	}
}

// Restore ends a blackhole: new connections go through again. Those it
// stalled stay stalled.
func (p *Proxy) Restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.blackhole = false
}

func (p *Proxy) close() {
	p.ln.Close()
	p.CutAll()
	p.wg.Wait()
}

func (p *Proxy) accept() {
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
		l := &link{client: client, server: server, stalled: make(chan struct{})}
		p.mu.Lock()
		n := p.accepted
		p.accepted++
		p.conns = append(p.conns, l)
		if p.blackhole {
			l.stall()
		}
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pump(l, n, Up, client, server)
		go p.pump(l, n, Down, server, client)
	}
}

// pump forwards one direction of a connection, chunk by chunk, through
// the rule.
func (p *Proxy) pump(l *link, n int, dir Dir, from, to net.Conn) {
	defer p.wg.Done()
	defer l.close()
	buf := make([]byte, 32<<10)
	var held []byte // bytes read and not yet forwarded
	var off int64   // the offset of held's first byte in this direction
	for {
		k, err := from.Read(buf)
		if l.isStalled() {
			if err != nil {
				return
			}
			continue // swallowed
		}
		held = append(held, buf[:k]...)
		var quit bool
		if held, off, quit = p.forward(l, n, dir, to, held, off, err != nil); quit || err != nil {
			return
		}
	}
}

// forward passes held through the rule to to, and returns what the rule
// holds back for later; quit if the connection is to end here.
func (p *Proxy) forward(l *link, n int, dir Dir, to net.Conn, held []byte, off int64, last bool) ([]byte, int64, bool) {
	for len(held) > 0 {
		p.mu.Lock()
		rule := p.rule
		p.mu.Unlock()
		pass, fault := len(held), (*Fault)(nil)
		if rule != nil {
			pass, fault = rule.Chunk(n, dir, off, held)
		}
		if l.isStalled() {
			return nil, off, false
		}
		if pass > 0 {
			if _, err := to.Write(held[:pass]); err != nil {
				return nil, off, true
			}
			off += int64(pass)
			held = held[pass:]
		}
		switch {
		case fault == nil && len(held) > 0 && !last:
			return held, off, false // the rule waits for more bytes
		case fault == nil && len(held) > 0:
			to.Write(held) // the rule wanted more, and there is no more
			return nil, off, true
		case fault == nil:
		case fault.Action == Cut:
			return nil, off, true
		case fault.Action == Stall:
			l.stall()
			return nil, off, false
		case fault.Action == Delay:
			time.Sleep(fault.For)
			if len(held) > 0 { // the byte the fault sat on goes now, so that it fires once
				if _, err := to.Write(held[:1]); err != nil {
					return nil, off, true
				}
				off++
				held = held[1:]
			}
		}
	}
	return held, off, false
}
