package http1

import (
	"io"
	"net"
	"sync"
	"time"
)

// bridge is the net.Conn that crypto/tls speaks through. crypto/tls has
// no memory-BIO API, as OpenSSL and Java's SSLEngine have: it reads and
// writes a net.Conn, and expects Read to wait for bytes. So the bridge is
// a memory BIO made by hand, two byte buffers between TLS and the loop:
//
//	socket --loop reads--> in  --Read-->  crypto/tls  --Write--> out --loop writes--> socket
//
// Only the loop ever touches the socket. During the handshake, crypto/tls
// runs on a goroutine of its own (tls.go says why); its Read waits on a
// condition variable until the loop has fed in bytes, and its Write only
// appends to out and asks the loop, through CallSoonThreadsafe, to send
// them. After the handshake, crypto/tls is called on the loop, and Read
// never waits: with nothing buffered it returns errWouldBlock, which
// crypto/tls hands back without breaking the connection (see
// errWouldBlock), and the loop tries again when the socket has more.
//
// Everything is under mu, as the two sides may be different goroutines;
// after the handshake the lock is uncontended.
type bridge struct {
	mu        sync.Mutex
	cond      sync.Cond // signalled when in grows, the input ends, or the bridge closes
	in        []byte    // from the socket, not yet read by crypto/tls
	inEnd     error     // io.EOF or a read error, once in is drained
	out       []byte    // from crypto/tls, not yet taken by the loop
	closed    bool
	blocking  bool   // Read waits for input: true during the handshake
	wantSend  func() // asks the loop to send out; set during the handshake
	sendAsked bool   // wantSend called, out not taken yet
	gaveEOF   bool   // Read has returned io.EOF to crypto/tls
	records   recordFraming
	peer      net.Addr
}

func newBridge(peer net.Addr, wantSend func()) *bridge {
	b := &bridge{blocking: true, wantSend: wantSend, peer: peer}
	b.cond.L = &b.mu
	return b
}

// errWouldBlock is what Read returns, after the handshake, when no bytes
// are buffered. crypto/tls keeps a connection usable after a read error
// only if the error is a net.Error whose Temporary method says true
// (crypto/tls/conn.go, readRecordOrCCS: any other error is stored and
// returned by every later call); partial records stay in its own buffer.
// The deadline error of a real net.Conn answers true to both Timeout and
// Temporary, and so does this one. TestTLSReadAfterWouldBlock pins it.
var errWouldBlock net.Error = wouldBlock{}

type wouldBlock struct{}

func (wouldBlock) Error() string   { return "http1: no TLS input buffered yet" }
func (wouldBlock) Timeout() bool   { return true }
func (wouldBlock) Temporary() bool { return true }

// feed hands the bridge what the loop read from the socket: data, or the
// end of the input (err is io.EOF or the read's error).
func (b *bridge) feed(data []byte, err error) {
	b.mu.Lock()
	b.in = append(b.in, data...)
	b.records.feed(data)
	if err != nil && b.inEnd == nil {
		b.inEnd = err
	}
	b.mu.Unlock()
	b.cond.Broadcast()
}

// buffered is how many input bytes crypto/tls has not read yet.
func (b *bridge) buffered() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.in)
}

// wholeRecords reports whether the input fed so far ends where a TLS
// record ends: no record has only partly arrived.
func (b *bridge) wholeRecords() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.records.atBoundary()
}

// take returns what crypto/tls wrote since the last take.
func (b *bridge) take() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.out
	b.out, b.sendAsked = nil, false
	return out
}

// handshakeDone switches the bridge to the loop's side: Read no longer
// waits, Write no longer asks the loop to send (the loop takes the output
// itself after each call into crypto/tls).
func (b *bridge) handshakeDone() {
	b.mu.Lock()
	b.blocking, b.wantSend = false, nil
	b.mu.Unlock()
}

// Read gives crypto/tls buffered input.
func (b *bridge) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.blocking && len(b.in) == 0 && b.inEnd == nil && !b.closed {
		b.cond.Wait()
	}
	switch {
	case b.closed:
		return 0, net.ErrClosed
	case len(b.in) > 0:
		n := copy(p, b.in)
		b.in = b.in[n:]
		if len(b.in) == 0 {
			b.in = nil // let the buffer go: an idle connection keeps none
		}
		return n, nil
	case b.inEnd == io.EOF:
		b.gaveEOF = true
		return 0, io.EOF
	case b.inEnd != nil:
		return 0, b.inEnd
	}
	return 0, errWouldBlock
}

// sawEOF reports whether crypto/tls asked for more input after the peer
// had closed: a close without a close_notify alert.
func (b *bridge) sawEOF() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.gaveEOF
}

// Write keeps what crypto/tls wrote for the loop to send. It never waits,
// so crypto/tls never sees a write time out (which, unlike a read, would
// break the connection for good).
func (b *bridge) Write(p []byte) (int, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return 0, net.ErrClosed
	}
	b.out = append(b.out, p...)
	ask := b.wantSend != nil && !b.sendAsked
	b.sendAsked = b.sendAsked || ask
	wantSend := b.wantSend
	b.mu.Unlock()
	if ask {
		wantSend()
	}
	return len(p), nil
}

// Close ends the bridge: a handshake waiting in Read returns at once. It
// does not touch the socket, which is the loop's.
func (b *bridge) Close() error {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.cond.Broadcast()
	return nil
}

// recordFraming follows the TLS record layer in the input (RFC 8446 §5.1,
// the same in TLS 1.2): each record is a 5-byte header, whose last two
// bytes give the length of the fragment that follows. It only counts;
// crypto/tls does the reading. The loop needs it because crypto/tls keeps
// a partly arrived record in a buffer of its own, and says nothing of it.
type recordFraming struct {
	header [5]byte
	have   int // bytes of the current header seen
	left   int // bytes of the current fragment still to come
}

func (f *recordFraming) feed(data []byte) {
	for len(data) > 0 {
		if f.left > 0 {
			n := min(f.left, len(data))
			f.left -= n
			data = data[n:]
			continue
		}
		n := copy(f.header[f.have:], data)
		f.have += n
		data = data[n:]
		if f.have == len(f.header) {
			f.left = int(f.header[3])<<8 | int(f.header[4])
			f.have = 0
		}
	}
}

func (f *recordFraming) atBoundary() bool { return f.have == 0 && f.left == 0 }

// The rest of net.Conn. Deadlines are the loop's timers' business, so
// crypto/tls setting one (it does, around close_notify) changes nothing.

func (b *bridge) LocalAddr() net.Addr                { return bridgeAddr("loop") }
func (b *bridge) RemoteAddr() net.Addr               { return b.peer }
func (b *bridge) SetDeadline(t time.Time) error      { return nil }
func (b *bridge) SetReadDeadline(t time.Time) error  { return nil }
func (b *bridge) SetWriteDeadline(t time.Time) error { return nil }

type bridgeAddr string

func (a bridgeAddr) Network() string { return "tcp" }
func (a bridgeAddr) String() string  { return string(a) }
