// Package http1 is the crawler's HTTP/1.1 client, written from the wire up
// instead of on net/http.
//
// crawler/http1 sits on loop and future; this part is the wire format, pure
// functions fed bytes. Nothing in the wire layer reads a socket, starts a
// goroutine or looks at a clock, so every rule of RFC 9112 it follows can be
// tested by handing it a byte string, split anywhere:
//
//   - [ParseTarget] turns a URL into what goes on the wire (Host header,
//     request-target) and what the dialer needs (host name, port);
//   - [AppendRequest] writes a request head into a caller's buffer;
//   - [Parser] is fed whatever bytes the socket returned and says when a
//     whole response has arrived, where it ended, and whether the
//     connection may carry another one;
//   - [Charset] and [MediaType] say how to read the body that came back.
//
// On top of the wire layer sits the client, driven by the event loop:
//
//   - [Client.Do] returns a future of a [Reply]; [Client.Get] awaits one
//     from inside a task;
//   - each connection (conn.go) is a small state machine run by the loop's
//     readiness callbacks — dialing, writing, reading, idle — with one
//     reader for its whole life and one timer whose meaning follows its
//     state, so a connection costs a struct, a parser and a socket, not a
//     goroutine or a coroutine stack;
//   - the pool (pool.go) keeps connections per host:port, reuses the newest
//     idle one, queues requests when a host is at its cap, and retries once
//     a request whose pooled connection turned out to be dead;
//   - every timeout (connect, read, write, pool, total) is a loop timer, and
//     the error says which one fired ([TimeoutError]);
//   - DNS runs in the loop's executor, behind a small TTL cache.
//
// Why an incremental parser: a non-blocking socket hands over whatever the
// kernel has, a few bytes or several pipelined responses at once. A parser
// that wants "a line" or "the body" would have to block or buffer
// everything; one that is fed bytes and keeps its own state can run inside
// a loop callback and never waits. That is the same design as Node's
// llhttp and Python's h11, and the reason asyncio's protocols have
// data_received.
//
// What it deliberately leaves out: HTTP/2, TLS, request bodies, Upgrade and
// CONNECT. It reads responses to GET and HEAD, which is all a crawler sends.
package http1
