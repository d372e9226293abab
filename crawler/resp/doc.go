// Package resp is a Redis client on the event loop, speaking RESP2 (the
// REdis Serialization Protocol) by hand: the second protocol of loopkit,
// beside crawler/http1, built the same way.
//
// crawler/resp sits on loop, future and task, like crawler/http1; it uses
// no net/http and no net.Conn. Sockets are the loop's (SockConnect, a
// reader callback, non-blocking writes); Go's net package is reached only
// through loop.Resolve, for DNS, off the loop.
//
// The wire format, pure functions fed bytes, testable by handing them a
// byte string split anywhere:
//
//   - [AppendCommand] writes a command as Redis reads it: an array of bulk
//     strings;
//   - [Parser] is fed whatever bytes a read returned and says when a whole
//     reply has arrived and where it ended; [Value] is a reply, of one of
//     RESP2's types;
//   - [Limits] bound every length the server sends.
//
// On top of it, driven by the loop:
//
//   - [Client.Send] returns a future of a reply; [Client.Do] awaits one
//     from inside a task; [Int], [String], [Strings] and [Array] read the
//     reply a command is known to give;
//   - one connection (conn.go) carries every command, pipelined, with its
//     replies matched to their commands by order alone;
//   - [Script] runs Lua scripts by SHA1 (EVALSHA), sending the source
//     (EVAL) only to a server that does not have it yet;
//   - a lost connection is made again, at once if it was up, with
//     exponential backoff while attempts fail; a password and a database
//     come from a redis:// URL ([ParseURL]) and are sent on every new
//     connection;
//   - the connection attempt and each reply have a timeout, both loop
//     timers ([TimeoutError]).
//
// Why an incremental parser: a non-blocking socket hands over whatever the
// kernel has, half a reply or twenty of them. A parser that is fed bytes
// and keeps its own state can run inside a loop callback and never wait.
// RESP makes it simpler than HTTP/1.1: every value starts with one type
// byte, every length is sent before the bytes it counts, and a bulk
// string is binary-safe because of that — no delimiter is searched for
// inside it.
//
// Why pipelining comes free on a loop: a Redis server answers the
// commands of one connection in the order they came. So a client need not
// wait for one reply before sending the next command; it only has to
// remember, in order, who is waiting (a FIFO of futures). On a loop this
// costs nothing to arrange. Every task and callback that sends a command
// during one turn appends it to the same buffer, and the write waits for
// the next turn: one write system call carries them all, and one read
// often brings all the replies back. A thread-per-request client needs a
// lock and a queue to do the same; here there is only one thread.
//
// What a caller can rely on when things go wrong: every command's failure
// says whether it may have run. [ErrNotConnected]: it was never sent,
// sending it again is safe. [ErrConnectionLost]: it was sent and no reply
// came (connection closed, reset, timed out, or a reply over its limit);
// it is never sent again behind the caller's back, except with
// [Client.SendIdempotent]. An error reply (-ERR ...) is an [*Error]: one
// command failed, the connection is fine.
//
// What it leaves out: RESP3 (HELLO 3; its maps, sets and push messages buy
// nothing here, and every Redis speaks RESP2 by default), TLS, Redis
// Cluster and Sentinel, pub/sub and MONITOR (the server would push
// messages no command asked for; they are refused), and a pool of
// connections — one pipelined connection carries tens of thousands of
// commands a second, and a program that needs more, or blocking commands,
// makes more clients.
package resp
