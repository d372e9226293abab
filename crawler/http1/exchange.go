package http1

import (
	"fmt"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// exchange is one request and its reply: it waits in its host's pool for a
// connection, runs on one, and completes its future exactly once.
//
// The future Do returns, and the Reply it resolves to, are fields of the
// exchange: the three are one allocation, where three records would be
// three. The price is that a caller who keeps the Reply keeps the whole
// exchange (a few hundred bytes) alive with it. The Reply comes first, so
// that a *Reply is the start of its allocation, as any other would be
// (runtime.SetFinalizer, for one, wants that).
//
// The reply is not only the answer: the exchange keeps in it what the
// answer will say — the URL, the Timings as they come, whether the body
// was skipped, whether the request was retried — rather than in fields
// of its own that would be copied over at the end. Every byte counts
// here: an exchange is alive for as long as its request waits, and a
// loop may hold ten thousand of them.
type exchange struct {
	reply  Reply
	result future.Future[*Reply]
	// resp is the Response the parser fills (Parser.Into): a field too,
	// so that it costs no allocation of its own, and so that a recycled
	// exchange brings back its Header's and Body's arrays with it.
	resp Response
	// recyclable says the exchange ended well and let go of everything
	// that could still touch it (its connection, its timers, its place in
	// a pool's queue): Reply.Release may put it on the free list.
	recyclable bool

	client *Client
	method string
	target Target
	extra  Header // Request.Header: fields after the client's own
	start  time.Duration
	pool   *hostPool
	conn   *conn  // while running on a connection
	connID uint64 // the last connection it ran on, for its Trace
	trace  *Trace // Request.Trace
	// deadline is when the total timeout runs out, on the loop's clock.
	// It is a field, not a timer: whatever guards the exchange at the
	// time checks it — its connection's timer, or the pool's timeout
	// while it waits for a connection. A timer of its own would cost a
	// timer and a closure per request, armed and then cancelled on almost
	// every one.
	deadline time.Duration
	waiting  *loop.Timer // the pool timeout (or the deadline), while queued

	maxBody  int64 // Request.MaxBodyBytes
	wantBody func(*Response) bool
	truncate bool   // Request.TruncateBody
	traced   bool   // trace filled in
	onSent   func() // Request.Sent
}

// newExchange makes the record of one request; begin starts it. The
// record comes from the client's free list when a Reply was released
// (release.go), else from the heap.
func newExchange(c *Client, req Request) *exchange {
	ex := c.takeFree()
	resp := ex.resp // the arrays of a recycled one's Header and Body, for the parser to reuse
	*ex = exchange{client: c, method: req.Method, extra: req.Header, start: c.loop.Time(),
		maxBody: req.MaxBodyBytes, truncate: req.TruncateBody, wantBody: req.WantBody, onSent: req.Sent, trace: req.Trace}
	ex.resp.Header, ex.resp.Body = resp.Header, resp.Body
	ex.reply.URL, ex.reply.ex = req.URL, ex
	ex.result.Init(c.loop)
	if ex.method == "" {
		ex.method = "GET"
	}
	return ex
}

// begin checks the request and finds it a connection.
func (ex *exchange) begin() {
	if ex.result.Done() {
		return // cancelled before it began (Fetch begins it a turn later)
	}
	c := ex.client
	var err error
	switch {
	case c.closed:
		err = ErrClientClosed
	default:
		ex.target, err = ParseTarget(ex.reply.URL)
	}
	// The client's own fields were checked when it was made; the
	// request's parts are checked now, so that a bad one fails here,
	// before any connection is dialled for it. The bytes themselves are
	// written when a connection takes the request (conn.send).
	if err == nil {
		err = c.fieldsErr
	}
	if err == nil {
		err = checkRequest(ex.method, ex.target, ex.extra)
	}
	if err != nil {
		ex.fillTrace()
		ex.result.SetError(err)
		return
	}
	ex.deadline = after(ex.start, c.opts.TotalTimeout)
	// A caller who cancels the future bypasses fail and succeed. What
	// the exchange leaves behind then is put right where it is noticed:
	// its connection closes itself (conn.exchangeDone), its place in a
	// pool's queue is skipped. Only a trace needs telling at once, so
	// only a traced exchange pays for a callback here.
	if ex.trace != nil {
		ex.result.OnDone(ex.fillTrace)
	}
	ex.pool = c.poolFor(ex.target)
	ex.pool.acquire(ex)
}

// beginner is an exchange seen from the loop's ready queue: Fetch
// schedules the exchange itself to begin, with no closure to allocate.
type beginner exchange

func (b *beginner) Run() { (*exchange)(b).begin() }

// totalTimeout is the error of an exchange past its deadline.
func (ex *exchange) totalTimeout() error {
	return &TimeoutError{Phase: "total", After: ex.client.opts.TotalTimeout}
}

// idempotent requests may be sent again when a pooled connection turns out
// to be dead (RFC 9110 §9.2.2): sending them twice does no harm.
func (ex *exchange) idempotent() bool {
	switch ex.method {
	case "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE":
		return true
	}
	return false
}

func (ex *exchange) since() time.Duration { return ex.client.loop.Time() - ex.start }

// connFailed is called when ex's connection broke. A reused connection
// that died before answering anything was most likely closed by the server
// while idle — a race every keep-alive client meets — so an idempotent
// request is retried once on a fresh connection.
func (ex *exchange) connFailed(err error, stale bool) {
	ex.conn = nil
	if ex.result.Done() {
		return
	}
	if stale && !ex.reply.Retried && ex.idempotent() {
		ex.reply.Retried = true
		ex.pool.dropIdle() // its idle siblings are likely dead too
		// Looked up again: with its last connection closed, the old pool
		// may have been forgotten, and a connection dialed from it would
		// be one the client no longer knows about.
		ex.pool = ex.client.poolFor(ex.target)
		ex.pool.acquire(ex)
		return
	}
	ex.fail(err)
}

func (ex *exchange) fail(err error) {
	if ex.result.Done() {
		return
	}
	ex.stopTimers()
	if ex.reply.Retried {
		err = fmt.Errorf("%w (%w)", err, ErrRetried)
	}
	ex.fillTrace()
	ex.result.SetError(err)
}

// succeed answers the exchange with resp. recyclable says nothing holds
// on to the exchange any more: not so for a skipped body's, whose
// connection reads on into the exchange's Response (skip.go).
func (ex *exchange) succeed(resp *Response, reused, recyclable bool) {
	ex.conn = nil
	if ex.result.Done() {
		return
	}
	ex.recyclable = recyclable
	ex.stopTimers()
	if ex.reply.Timings.Done == 0 { // not set by the read that completed it
		ex.reply.Timings.Done = ex.since()
	}
	if ex.reply.BodySkipped {
		resp.Body = nil
	}
	ex.fillTrace()
	ex.reply.Response, ex.reply.Reused = resp, reused
	ex.result.SetResult(&ex.reply)
}

// fillTrace tells the caller's Trace how the exchange went; the first
// ending counts (succeed or fail; a caller's Cancel only in OnDone).
func (ex *exchange) fillTrace() {
	if ex.trace == nil || ex.traced {
		return
	}
	ex.traced = true
	if ex.reply.Timings.Done == 0 {
		ex.reply.Timings.Done = ex.since()
	}
	*ex.trace = Trace{Conn: ex.connID, Start: ex.start, Timings: ex.reply.Timings}
}

func (ex *exchange) stopTimers() {
	if ex.waiting != nil {
		ex.waiting.Cancel()
		ex.waiting = nil
	}
}
