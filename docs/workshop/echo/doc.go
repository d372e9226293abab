// Package echo is workshop exercise 4: a server in callback style, with
// the loop's reader and writer callbacks and nothing else — no futures,
// no tasks. It is stage 3 of the tutorial turned round: there the program
// was the client; here it is the server, with many clients at once.
//
// The server sends every byte a client sends back to that client, in
// order. When a client closes its side of the connection, the server
// finishes echoing what it has, then closes the connection.
//
// What it teaches:
//
//   - the listening socket is readable when a connection is waiting:
//     accept in its reader callback (netpoll.Accept), until ErrWouldBlock;
//   - each connection's state lives in a struct, and where it has got to
//     is which callbacks are registered;
//   - a write may take only part of the buffer (netpoll.Write returns how
//     much it took, or ErrWouldBlock when it took nothing). Keep the rest,
//     and register a writer callback to send it when there is room;
//   - backpressure: while a client does not read its echo, stop reading
//     from it (remove the reader until the rest is written). Otherwise a
//     client that only sends makes the server buffer without limit;
//   - remove a fd's callbacks before closing it (loop.AddReader's rule).
//
// Listen uses netpoll.Listen for the listening socket; the sockets are the
// server's, not the loop's, so Close closes them with netpoll.Close.
//
// Edit exercise.go; run the tests with
//
//	go test -tags workshop ./docs/workshop/echo
package echo
