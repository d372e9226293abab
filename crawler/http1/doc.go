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
//     from inside a task; [Reply.Release] hands a reply that was read back
//     to the client, whose free list (release.go) gives its record, with
//     its response's arrays, to the next request: a request then
//     allocates one object, the string of its response's head;
//   - each connection (conn.go) is a small state machine run by the loop's
//     readiness callbacks — dialing, handshaking (https), writing,
//     reading, idle — with one reader for its whole life and one timer
//     whose meaning follows its state, so a plain connection costs a
//     struct, a parser and a socket, not a goroutine or a coroutine stack;
//   - the pool (pool.go) keeps connections per scheme, host and port,
//     reuses the newest idle one, queues requests when a host is at its
//     cap, and retries once a request whose pooled connection turned out
//     to be dead;
//   - https (tls.go) is crypto/tls over a bridge (tlsbridge.go), because
//     crypto/tls reads and writes a net.Conn and has no memory-BIO API:
//     the loop alone touches the socket and moves bytes between it and
//     two buffers. The handshake runs on a goroutine per handshake, off
//     the loop — it blocks inside crypto/tls, and it is the one expensive
//     computation of a connection, a few hundred microseconds to a few
//     milliseconds; after it, records are read and written on the loop.
//     SNI, the system's roots or Options.TLS's, ALPN "http/1.1", a
//     handshake timeout, session resumption, keep-alive, close_notify;
//     errors name the host ([TLSError]). It costs a goroutine's stack per
//     handshake in progress, crypto/tls's buffers (5 to 28 KiB) per idle
//     connection, and one more copy of every byte;
//   - a new connection tries the host's addresses as browsers do (dial.go,
//     RFC 8305 simplified): IPv6 and IPv4 interleaved, the next address
//     250 ms after the last or at once when it fails, the first to connect
//     wins and the others are closed;
//   - every timeout (connect, handshake, write, read, header, pool,
//     total) is kept by a loop timer, and the error says which one fired
//     ([TimeoutError]); a connection's one timer keeps its phase's
//     timeout and the total deadline of the request it carries, so a
//     request on a keep-alive connection costs no timer of its own;
//   - DNS runs in the loop's executor, behind a small TTL cache; a host
//     with nothing open is forgotten, so a crawl of a million hosts does
//     not keep a million pools.
//
// Why an incremental parser: a non-blocking socket hands over whatever the
// kernel has, a few bytes or several pipelined responses at once. A parser
// that wants "a line" or "the body" would have to block or buffer
// everything; one that is fed bytes and keeps its own state can run inside
// a loop callback and never waits. That is the same design as Node's
// llhttp and Python's h11, and the reason asyncio's protocols have
// data_received.
//
// Strict by default, lenient only with a reason. Where two parsers of the
// same bytes could disagree on where a message ends — the root of request
// smuggling and response splitting — the parser refuses: bare CR, NUL,
// whitespace before a colon, conflicting or malformed lengths, a chunk
// framing line ending in a bare LF, a chunk size that overflows; and over
// TLS the client refuses a body delimited by the close when the close
// came without a close_notify (RFC 9112 §9.8: it may have been cut short
// by an attacker). What it does accept beyond the letter of RFC 9112, and
// why:
//
//   - empty elements in comma-separated lists ("gzip, , br"), which RFC
//     9110 §5.6.1 asks a recipient to skip — except in Transfer-Encoding,
//     where ", chunked" is refused as Go's net/http refuses it: that field
//     decides where the message ends;
//   - a bare LF ending the status line, a header field or a trailer field:
//     RFC 9112 §2.2 lets a recipient accept it (not in chunk framing, which
//     §7.1 defines with CRLF only);
//   - no space after the status code when the reason is empty ("HTTP/1.1
//     404"): §4 lets a recipient parse the status line on whitespace
//     boundaries, and real servers send it;
//   - obs-fold (a header line continued on the next): §5.2 obliges a user
//     agent to unfold it into a space;
//   - control bytes other than NUL and CR inside a received field value:
//     RFC 9110 §5.5 lets a recipient keep them; they cannot end a line;
//   - Content-Length given as a list of equal values ("5, 5"): RFC 9110
//     §8.6, for what proxies that merge fields produce;
//   - Transfer-Encoding with Content-Length, or in HTTP/1.0: read as the
//     Transfer-Encoding says, then the connection is closed (RFC 9112 §6.1,
//     §6.3), so nothing after it is trusted;
//   - chunk extensions are skipped without checking their grammar, only
//     for control bytes: §7.1.1 says to ignore them, and with CRLF required
//     and controls refused, nothing in them can move where a chunk ends;
//   - "x-gzip" as gzip (RFC 9110 §8.4.1.3), a later HTTP/1.x minor version
//     as 1.1 (RFC 9110 §2.5);
//   - status codes 600 to 999, the one leniency without an RFC behind it
//     (RFC 9110 §15 defines 100 to 599): servers do send them (LinkedIn's
//     999 to crawlers), the code is reported and never acted on, and it
//     cannot change framing.
//
// What it deliberately leaves out: HTTP/2 (ALPN offers only http/1.1),
// request bodies, Upgrade and CONNECT, proxies, client certificates. It
// reads responses to GET and HEAD, which is all a crawler sends.
package http1
