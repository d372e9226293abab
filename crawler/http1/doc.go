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
// The connection state machine and the keep-alive pool, which drive these
// functions from the event loop, live in the same package.
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
