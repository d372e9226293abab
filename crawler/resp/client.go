package resp

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// Options configure a Client. Zero fields take the defaults in brackets.
type Options struct {
	// ConnectTimeout bounds one connection attempt: DNS, the TCP
	// handshake and the login (AUTH, SELECT, script loads, or a PING).
	// [5s]
	ConnectTimeout time.Duration
	// ReplyTimeout bounds the wait for each reply, counted from when its
	// command was given to the connection or, if others were ahead of it,
	// from the reply before it. When it runs out the connection is closed:
	// replies come in order, so one that never comes blocks all behind it.
	// A client for blocking commands (BLMOVE, XREAD BLOCK) needs it longer
	// than their block time — and a connection of its own. [5s]
	ReplyTimeout time.Duration
	// MinBackoff and MaxBackoff bound the wait before the next connection
	// attempt after a failed one: MinBackoff doubled per failure in a row,
	// at most MaxBackoff, times a random factor from 0.5 to 1 so that a
	// fleet of clients does not reconnect in lockstep. [50ms, 5s]
	MinBackoff, MaxBackoff time.Duration
	// Limits bound the size of a reply.
	Limits Limits
	// Scripts are loaded (SCRIPT LOAD) on every new connection, so their
	// EVALSHA finds them even right after the server restarted empty.
	Scripts []*Script
	// OnConnEvent, if set, hears on the loop of every connection made,
	// lost or failed: what a program logs to say "Redis is down,
	// retrying".
	OnConnEvent func(ConnEvent)
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.ConnectTimeout, 5*time.Second)
	def(&o.ReplyTimeout, 5*time.Second)
	def(&o.MinBackoff, 50*time.Millisecond)
	def(&o.MaxBackoff, 5*time.Second)
	o.MaxBackoff = max(o.MaxBackoff, o.MinBackoff)
	o.Limits = o.Limits.withDefaults()
	return o
}

// ConnEvent is a change in the client's connection.
type ConnEvent struct {
	Up      bool          // a connection is ready; else one was lost or an attempt failed
	Err     error         // why it went down
	RetryIn time.Duration // when the next attempt starts (0: at once)
}

// Stats count what a client has done since it was made.
type Stats struct {
	Connects       uint64 // connections that came up
	FailedAttempts uint64 // connection attempts that did not
	Lost           uint64 // connections lost after they came up
	Commands       uint64 // commands accepted (sent, or queued to be)
	Replies        uint64 // replies delivered to commands
}

// Client speaks RESP to one Redis server over one connection, from one
// event loop. Every command is written to that connection as soon as it
// is given (pipelined), and its reply is a future that completes when the
// reply arrives; replies come back in the order the commands went out.
//
// The connection is made at once by NewClient, and made again when it is
// lost (see Send for what happens to commands meanwhile). Like everything
// on a loop, a Client is used only from the loop's goroutine.
type Client struct {
	loop *loop.Loop
	url  URL
	opts Options

	conn     *conn       // the connection, connecting or up; nil between attempts
	retry    *loop.Timer // the next attempt, while conn is nil
	retryAt  time.Duration
	failures int   // failed attempts in a row
	lastErr  error // why the last connection failed or was lost
	stats    Stats
	readBuf  []byte // every read is parsed at once, so one buffer serves
	closed   bool

	unregister func() // the loop's close hook
}

// NewClient returns a client of the server at rawURL (see ParseURL) on l,
// and starts connecting. A server that is down is not an error here: the
// first commands fail with ErrNotConnected, saying why, while the client
// keeps trying.
func NewClient(l *loop.Loop, rawURL string, opts Options) (*Client, error) {
	u, err := ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	c := &Client{loop: l, url: u, opts: opts.withDefaults(), readBuf: make([]byte, 64<<10)}
	// A client left open when its loop closes still fails its commands,
	// rather than leave them pending for ever.
	c.unregister = l.OnClose(c.Close)
	c.connect()
	return c, nil
}

// URL is where the client connects.
func (c *Client) URL() URL { return c.url }

// Connected reports whether a connection is up: commands go out at once.
func (c *Client) Connected() bool { return c.conn != nil && c.conn.up }

// Stats returns the client's counters.
func (c *Client) Stats() Stats { return c.stats }

// Send sends a command and returns a future of its reply:
//
//	f := client.Send("INCR", "pages")  // f completes with (integer) 1
//
// The command goes out in the loop's next turn, in one write with every
// other command given during this turn. The future completes with the
// reply; with an *Error if the reply is an error reply; with an error
// matching ErrNotConnected if the command could not be sent; or with one
// matching ErrConnectionLost if the connection was lost before its reply.
//
// A command given while the client is connecting waits, unsent, for the
// connection. One given while the client waits before its next attempt
// fails at once with ErrNotConnected: the caller decides whether to wait
// and try again; the client never holds commands for a server that is
// down. Commands sent on a connection that is lost are never sent again
// (see SendIdempotent).
//
// Cancelling the future does not take the command back: it is already on
// its way, and its reply, when it comes, is read and dropped.
func (c *Client) Send(args ...any) *future.Future[Value] {
	return c.send(args, false)
}

// SendIdempotent is Send for a command that is safe to run twice, such as
// GET or a script that only reads. If the connection is lost before its
// reply, it is sent again, once, on the next connection.
func (c *Client) SendIdempotent(args ...any) *future.Future[Value] {
	return c.send(args, true)
}

func (c *Client) send(args []any, idempotent bool) *future.Future[Value] {
	f := future.New[Value](c.loop)
	cn, err := c.accepting(args)
	if err != nil {
		f.SetError(err)
		return f
	}
	buf := cn.buffer()
	start := len(*buf)
	*buf, err = AppendCommand(*buf, args...)
	if err != nil {
		f.SetError(err)
		return f
	}
	cl := call{f: f}
	if idempotent {
		cl.resend = slices.Clone((*buf)[start:])
	}
	cn.add(cl)
	return f
}

// sendEncoded sends a command already encoded by AppendCommand, in parts.
func (c *Client) sendEncoded(parts ...[]byte) *future.Future[Value] {
	f := future.New[Value](c.loop)
	cn, err := c.accepting(nil)
	if err != nil {
		f.SetError(err)
		return f
	}
	buf := cn.buffer()
	for _, p := range parts {
		*buf = append(*buf, p...)
	}
	cn.add(call{f: f})
	return f
}

// accepting returns the connection a command goes to, or why it cannot go.
func (c *Client) accepting(args []any) (*conn, error) {
	if c.closed {
		return nil, fmt.Errorf("%w: %w", ErrNotConnected, ErrClientClosed)
	}
	if len(args) > 0 {
		if err := refused(args[0]); err != nil {
			return nil, err
		}
	}
	if c.conn == nil {
		return nil, fmt.Errorf("%w: %s: next attempt in %v; the last one failed: %w",
			ErrNotConnected, c.url.Addr(), max(c.retryAt-c.loop.Time(), 0).Round(time.Millisecond), c.lastErr)
	}
	return c.conn, nil
}

// refused turns away the commands that would break a shared, pipelined,
// reconnecting connection.
func refused(name any) error {
	var s string
	switch n := name.(type) {
	case string:
		s = n
	case []byte:
		s = string(n)
	}
	if len(s) < 4 || len(s) > 10 {
		return nil // none of those below: the common case decided on length alone
	}
	for _, r := range refusedCommands {
		if strings.EqualFold(s, r.name) {
			return fmt.Errorf("resp: %s is refused on a pipelined connection: %s", r.name, r.why)
		}
	}
	return nil
}

var refusedCommands = []struct{ name, why string }{
	{"SUBSCRIBE", pushes}, {"PSUBSCRIBE", pushes}, {"SSUBSCRIBE", pushes}, {"MONITOR", pushes},
	{"SELECT", connState}, {"AUTH", connState}, {"HELLO", connState}, {"RESET", connState},
}

const (
	pushes    = "the server would push messages that no command asked for, and replies would no longer match commands"
	connState = "it changes the connection's state, which a new connection would not have; put the database and the password in the URL"
)

// Close closes the connection. Commands waiting for their replies fail
// with ErrConnectionLost, those not yet sent with ErrNotConnected, and
// both match ErrClientClosed.
func (c *Client) Close() {
	if c.closed {
		return
	}
	c.closed = true
	c.unregister()
	if c.retry != nil {
		c.retry.Cancel()
		c.retry = nil
	}
	if cn := c.conn; cn != nil {
		c.conn = nil
		cn.close()
		cn.failCalls(ErrClientClosed)
	}
}
