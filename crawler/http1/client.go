package http1

import (
	"crypto/tls"
	"errors"
	"net/netip"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// Options configure a Client. Zero fields take the defaults in brackets.
// A timeout too large for the loop's clock (math.MaxInt64) means none.
type Options struct {
	// UserAgent names the client and, for a crawler, how to reach its
	// operator. ["loopkit/0.1 (+https://example.invalid/loopkit)"]
	UserAgent string
	// Accept is the Accept field. [text/html and XML first, then anything]
	Accept string
	// MaxConnsPerHost caps open connections to one host:port. [16]
	MaxConnsPerHost int
	// IdleTimeout closes a pooled connection unused for this long. [30s]
	IdleTimeout time.Duration
	// The timeouts. Connect covers one TCP handshake, to one address of
	// the host (the next is tried meanwhile: see dial.go); Read is the longest
	// silence between two reads (not the whole response); Header the time
	// from the request written to the end of the response head, so a
	// server cannot dribble its head a byte at a time; Write the longest
	// stall while sending; Pool the wait for a free connection when the
	// host is at its cap; Total the whole request, everything included.
	ConnectTimeout time.Duration // [10s]
	ReadTimeout    time.Duration // [30s]
	// [ReadTimeout: a server that may be silent that long before its first
	// byte has no need of longer for its whole head]
	HeaderTimeout time.Duration
	WriteTimeout  time.Duration // [10s]
	PoolTimeout   time.Duration // [30s]
	TotalTimeout  time.Duration // [2m]
	// Limits bound the size of a response.
	Limits Limits
	// DNSTTL is how long a resolved host is remembered. [1m]
	DNSTTL time.Duration
	// TLS configures https connections. nil means the system's roots, and
	// certificates verified; set RootCAs to trust others, and
	// InsecureSkipVerify only to test. It is copied, and for each host its
	// ServerName is set (SNI, and the name checked), its NextProtos is
	// "http/1.1" (ALPN: this client speaks nothing else), and a session
	// cache is added if it has none, so that a host's next connections
	// resume their TLS session instead of a full handshake.
	TLS *tls.Config
	// HandshakeTimeout bounds a TLS handshake, from the TCP connection to
	// the handshake's end. [10s]
	HandshakeTimeout time.Duration
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if o.UserAgent == "" {
		o.UserAgent = "loopkit/0.1 (+https://example.invalid/loopkit)"
	}
	if o.Accept == "" {
		o.Accept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	}
	if o.MaxConnsPerHost <= 0 {
		o.MaxConnsPerHost = 16
	}
	def(&o.IdleTimeout, 30*time.Second)
	def(&o.ConnectTimeout, 10*time.Second)
	def(&o.ReadTimeout, 30*time.Second)
	def(&o.HeaderTimeout, o.ReadTimeout)
	def(&o.WriteTimeout, 10*time.Second)
	def(&o.PoolTimeout, 30*time.Second)
	def(&o.TotalTimeout, 2*time.Minute)
	def(&o.DNSTTL, time.Minute)
	def(&o.HandshakeTimeout, 10*time.Second)
	o.Limits = o.Limits.withDefaults()
	return o
}

// ErrClientClosed fails requests still in flight when the Client closes.
var ErrClientClosed = errors.New("http1: client closed")

// Client is an HTTP/1.1 client on one event loop: a keep-alive pool per
// host:port, a DNS cache, and one small state machine per connection,
// driven by the loop's readiness callbacks. No goroutine and no coroutine
// stack per connection: an idle connection costs its socket, a struct and
// a parser, which is what lets thousands stay open.
//
// Like everything on a loop, a Client is used only from the loop's
// goroutine.
type Client struct {
	loop   *loop.Loop
	opts   Options
	fields Header // sent with every request
	// fieldsErr is what checking fields said, once, when the client was
	// made: a bad User-Agent fails every request with it.
	fieldsErr error
	pools     map[poolKey]*hostPool
	dns       *dnsCache
	readBuf   []byte   // shared: every read is consumed by its parser at once
	free      freeList // released exchanges, for the next requests (release.go)
	conns     uint64   // connections ever opened: the last one's number
	plain     []byte   // shared: decrypted bytes, likewise (tls.go)
	tlsBase   *tls.Config
	closed    bool

	// How connections are opened: the loop's SockConnect, and RFC 8305's
	// attempt delay. Tests replace them to play unreachable addresses.
	connect      func(netip.AddrPort) *future.Future[int]
	attemptDelay time.Duration
}

// NewClient returns a client on l.
func NewClient(l *loop.Loop, opts Options) *Client {
	opts = opts.withDefaults()
	tlsBase := &tls.Config{}
	if opts.TLS != nil {
		tlsBase = opts.TLS.Clone()
	}
	tlsBase.NextProtos = []string{"http/1.1"}
	if tlsBase.ClientSessionCache == nil {
		tlsBase.ClientSessionCache = tls.NewLRUClientSessionCache(0)
	}
	c := &Client{
		tlsBase: tlsBase,
		loop:    l,
		opts:    opts,
		fields: Header{
			{"User-Agent", opts.UserAgent},
			{"Accept", opts.Accept},
			{"Accept-Encoding", "gzip"},
		},
		pools:   make(map[poolKey]*hostPool),
		dns:     newDNSCache(l, opts.DNSTTL),
		readBuf: make([]byte, 64<<10),

		connect:      l.SockConnect,
		attemptDelay: connectAttemptDelay,
	}
	c.fieldsErr = checkFields(c.fields)
	return c
}

// Request is what to fetch. Method defaults to GET.
type Request struct {
	Method string
	URL    string
	Header Header // extra fields, after the client's own
	// MaxBodyBytes, if positive, replaces the client's body limit for
	// this request.
	MaxBodyBytes int64
	// TruncateBody keeps the first MaxBodyBytes of a longer body and marks
	// the Response Truncated, instead of failing with ErrBodyTooLarge.
	TruncateBody bool
	// Trace, if set, is filled in when the request ends, however it ends:
	// which connection carried it and when each phase ended (timelines).
	Trace *Trace
	// WantBody, if set, is asked once the head of the response has
	// arrived. If it says no, the Reply comes at once, with BodySkipped
	// set and no Body; the connection reads and drops the rest if it is
	// short (cheaper than a new connection), or is closed.
	WantBody func(head *Response) bool
	// Sent, if set, is called when the request has all been written to
	// the socket (over TLS, encrypted): the moment the server may start
	// on it. It is called again if a dead pooled connection makes the
	// client send it once more on a fresh one. A crawler counts its
	// politeness spacing from here.
	Sent func()
}

// Timings says when each phase of a request ended, measured from the
// moment Do was called. DNS, Connect and TLS (the handshake, for https)
// are zero on a reused connection.
type Timings struct {
	DNS, Connect, TLS, Written, FirstByte, Done time.Duration
}

// Trace says where one request went and when, for a timeline: the
// connection that carried it last, or was being dialled for it (numbered
// from 1 per client in the order they were opened; 0 if it never got
// that far), and its phases.
type Trace struct {
	Conn    uint64
	Start   time.Duration // loop time when Do was called
	Timings Timings       // from Start; phases it never reached stay zero
}

// Reply is a Response together with what the client learnt getting it.
type Reply struct {
	*Response
	URL     string // the URL requested (redirects are not followed)
	Timings Timings
	Reused  bool // came over a pooled keep-alive connection
	Retried bool // a stale pooled connection failed and a fresh one was used
	// BodySkipped says the body was not read, because WantBody said no.
	BodySkipped bool

	ex *exchange // the record the Reply is part of, for Release
}

// Charset names the charset to decode the body with (see Charset).
func (r *Reply) Charset() string {
	return Charset(r.Header.Get("Content-Type"), r.Body)
}

// Do sends req and returns a future of its reply. Redirects are returned,
// not followed: the crawler follows them itself, to filter and merge them.
// Cancelling the future aborts the request and closes its connection.
func (c *Client) Do(req Request) *future.Future[*Reply] {
	ex := newExchange(c, req)
	ex.begin()
	return &ex.result
}

// Close closes every connection. Requests in flight fail with ErrClientClosed.
func (c *Client) Close() {
	c.closed = true
	c.free = freeList{}
	for key, p := range c.pools {
		p.closeAll(ErrClientClosed)
		delete(c.pools, key)
	}
	c.dns.close()
}

// OpenConns is the number of open connections, busy and idle.
func (c *Client) OpenConns() int {
	n := 0
	for _, p := range c.pools {
		n += p.open
	}
	return n
}

// poolKey names a host's pool: a struct, so that finding the pool of each
// request builds no string. http and https to one host:port are two pools:
// a connection speaks one or the other.
type poolKey struct {
	https    bool
	hostname string
	port     int
}

func (c *Client) poolFor(t Target) *hostPool {
	key := poolKey{t.Scheme == "https", t.Hostname, t.Port}
	p := c.pools[key]
	if p == nil {
		p = &hostPool{client: c, key: key, host: t.Host, hostname: t.Hostname, port: t.Port, conns: make(map[*conn]struct{})}
		if key.https {
			p.tls = c.tlsConfig(t)
		}
		c.pools[key] = p
	}
	return p
}
