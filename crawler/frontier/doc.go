// Package frontier is a polite crawler's to-do list: URLs wait in the
// queue of their host, and a job is handed out only when its server may
// be sent a request now. It sits under package crawler, beside
// crawler/http1, and imports nothing of loopkit's: no loop, no socket, no
// clock. Every call that needs the time is given it (now, a loop time:
// a duration since the loop began), so the frontier's tests are exact,
// and the crawler arms one loop timer for the time Wake names.
//
// It replaces the 500-lines crawler's single queue, which cannot be polite
// without stalling: a worker that takes a URL first and then waits for
// its host's turn is a worker lost to every other host. Scrapy's
// downloader slots and Heritrix's per-host queues have the same shape.
//
// # The contract
//
// A host is an origin, scheme://host:port: the unit of a robots.txt (RFC
// 9309 §2.3) and of a queue. A server is the machine behind one or more
// origins, keyed by host and port (the authority): http://example.com and
// https://example.com are one server. Politeness is the server's.
//
//   - Push queues a URL at the back of its host's queue.
//   - Next hands out a job when a host has work, its server is under its
//     concurrency limit and the server's next start has come. Of several
//     such hosts, the one whose time came first goes; between equal
//     times, the host created first. A host that must wait holds up no
//     other. Wake says when Next could next hand something out.
//   - Sent says a job's request is on the wire. The spacing between two
//     requests to a server counts from the moment the first was sent,
//     not from when it was handed out: a slow connect does not shorten
//     the gap the server sees. While a server has a job handed out and
//     not yet sent, and a spacing to keep, it starts nothing else.
//   - Finish says a job is over. Requeue puts its URL back at the front
//     of its host's queue, at once or not before a given time (a retry's
//     backoff), without a worker waiting for it.
//   - HoldUntil moves a server's next start later, never earlier
//     (Retry-After, Crawl-delay). SetDelay raises its spacing.
//   - Succeeded, PushedBack and Failed tell the server's pace how the
//     server answered: it gains concurrency while things go well, and
//     halves it and spaces its requests out when the server pushes back
//     (AIMD, pace.go).
//   - A gate is a host's first job, handed out alone while the host's
//     queue waits behind it: the crawler uses it for robots.txt. Open lets
//     the queue go (for a while, if the gate must be passed again); Retire
//     gives the host up, handing back what it had queued.
//   - Stop hands out nothing more. Empty says the frontier has nothing
//     left: nothing queued, handed out or waiting out a backoff — or,
//     once stopped, nothing handed out.
//
// A Frontier is not safe for concurrent use: it belongs to one loop, as
// everything on a loop does. One crawl on several loops gives each loop a
// frontier of its own for the servers it owns.
//
// What lies beyond: a queued URL costs about 93 bytes here (its string, a
// slot in its host's ring buffer). A frontier of a hundred million URLs
// would keep its per-host queues on disk, as Heritrix's does.
package frontier
