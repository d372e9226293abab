package http1

// A request's record — the exchange, with its future, its Reply and its
// Response inside — has to live on the heap: the callback that started
// the request returns long before the reply comes. A goroutine keeps the
// same state in local variables, on its stack, for free. So a client on
// the loop would pay one allocation per request that a goroutine does
// not, and the parser's Response and body on top, had it no way to reuse
// the records of requests that are over.
//
// It has one: a free list. A caller that is done with a Reply calls
// Release, and the exchange goes on the client's list; the next request
// takes it from there instead of allocating, and the parser fills its
// Response again, reusing the arrays of its Header and Body. The list
// needs no lock because the client, like everything on a loop, is used
// from the loop's goroutine alone. (sync.Pool would also do, but it pays
// for being safe across goroutines, and the collector empties it.)
//
// Why this costs a goroutine per connection more than it costs the loop:
// a goroutine could keep a Response per connection and parse into it
// (Parser.Into is there for it), but then every connection, idle ones
// too, would keep a body's array. The loop's list holds as many records
// as requests were in flight at once, at most maxFree, whatever the
// number of connections.
//
// Production clients do the same: fasthttp's AcquireResponse and
// ReleaseResponse, Netty's pooled buffers. The price is the same too: a
// Reply used after Release holds another request's answer. Release is
// optional; a Reply never released is left to the garbage collector.

// maxFree bounds the free list: a burst of thousands of requests must
// not leave thousands of records behind.
const maxFree = 256

// maxFreeBody is the largest body array a record keeps on the list: one
// 10 MiB page must not stay in memory for the life of the client.
const maxFreeBody = 64 << 10

// Release hands the Reply's memory back to its client, for a later
// request to reuse. After it, the Reply, its Response, and the Response's
// Header, Trailer and Body must not be used: they will hold another
// request's answer. Call it once, on the loop, when done with all of them:
// in the future's done callback, or after a task's Get.
//
// It does nothing for a Reply whose body was skipped (WantBody) while its
// connection still had that body to read, nor for a Reply not made by a
// Client: those are left to the garbage collector. (A request that failed
// or was cancelled has no Reply to release.)
func (r *Reply) Release() {
	ex := r.ex
	if ex == nil || ex.reply.ex != ex || !ex.recyclable {
		return
	}
	ex.recyclable = false
	c := ex.client
	if c.closed {
		return
	}
	if cap(ex.resp.Body) > maxFreeBody {
		ex.resp.Body = nil
	}
	// The header's strings are let go now rather than when the record is
	// reused. The rest of the record stays as it is: its future may still
	// have callbacks to run (see pop).
	clear(ex.resp.Header[:cap(ex.resp.Header)])
	c.free.push(ex)
}

// freeList is a queue of released exchanges, oldest first, in a ring of
// maxFree slots made at the first Release.
//
// A queue, not a stack, because a record may be released before its
// future is settled (future.Settled): a task's Get returns from the
// first of the future's callbacks (the task's wake-up), while the second
// (the connection's, which watches for a cancel) is still in the loop's
// ready queue. Such a record must not be reused until that one has run,
// and the record released last is the likeliest not to be. The oldest is
// settled by the time it is asked for: every callback of a done future
// is already scheduled, and runs within the turn.
type freeList struct {
	ring  []*exchange
	first int // the oldest
	n     int
}

// push adds ex to the queue, unless it is full.
func (q *freeList) push(ex *exchange) {
	if q.ring == nil {
		q.ring = make([]*exchange, maxFree)
	}
	if q.n == len(q.ring) {
		return // the garbage collector takes it
	}
	q.ring[(q.first+q.n)%len(q.ring)] = ex
	q.n++
}

// pop takes the oldest exchange, if it is settled.
func (q *freeList) pop() *exchange {
	if q.n == 0 || !q.ring[q.first].result.Settled() {
		return nil
	}
	ex := q.ring[q.first]
	q.ring[q.first] = nil
	q.first = (q.first + 1) % len(q.ring)
	q.n--
	return ex
}

// takeFree returns an exchange from the free list, or a new one.
func (c *Client) takeFree() *exchange {
	if ex := c.free.pop(); ex != nil {
		return ex
	}
	return new(exchange)
}
