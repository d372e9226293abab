// Package netpoll is the bottom of loopkit's stack: the operating system's
// readiness API (epoll on Linux, kqueue on the BSDs and macOS, poll(2) on
// every Unix) behind one small interface, plus the handful of socket system
// calls the layers above need. It owns every OS constant in the project, so
// that nothing above it ever mentions EPOLLIN or EV_ADD.
//
// # The contract
//
// A Poller watches file descriptors for readiness. It is owned by one
// goroutine (the loop's): Register, Modify, Deregister, Wait and Close may
// only be called from that goroutine. Wake is the single exception and may
// be called from any goroutine at any time, including while Wait blocks —
// but never once Close has begun: it would write to a closed descriptor,
// or to a new one that was given its number. The owner orders the two (the
// loop wakes under the lock that Close takes first).
//
//   - Register(fd, token, interest) starts watching fd. The token is returned
//     with every event for fd; the loop puts a generation number in it, so an
//     event that was queued for an fd which has since been closed and whose
//     number was handed to a new socket can be recognised as stale and dropped.
//   - Modify changes the interest (and token) of a registered fd.
//   - Deregister stops watching fd. It must be called before the fd is
//     closed: epoll keeps a registration while any duplicate of the fd is
//     open, and poll(2) would find the number closed (POLLNVAL).
//   - An fd closed while registered is the caller's bug, and the poller
//     says so rather than spin or go quiet. poll(2) reports it at the next
//     Wait, as an Event whose Ready is Invalid, and forgets it. epoll and
//     kqueue forget a closed fd without a word; Modify or Deregister of it
//     then fails with ErrNotRegistered — also when its number has been
//     given to a new fd meanwhile, which is how a caller learns that its
//     record of the old fd is stale. (poll(2) cannot tell a reused number
//     from the old fd if no Wait came in between.) Register on epoll of an
//     fd the kernel still has — a duplicate kept the file open through the
//     close, and the number came back to it — updates that registration.
//   - Wait blocks until at least one registered fd is ready, Wake is called,
//     or the timeout passes (timeout < 0 blocks forever, 0 only polls). It
//     returns the ready events in a slice owned by the Poller and valid until
//     the next Wait. A wait interrupted by a signal (EINTR) is restarted with
//     the time that is left. Timeouts under a millisecond are rounded up, not
//     down, so a timer due in 300µs does not turn the loop into a busy-wait;
//     timeouts over 1e6 seconds (11.5 days) are cut to that, since macOS
//     refuses long ones, and the caller waits again.
//     The event buffer starts at 128 entries and doubles each time a Wait fills it.
//   - Wake makes a blocked (or the next) Wait return. Wake-ups are
//     deduplicated: while one is pending, further calls write nothing. A full
//     wake channel (EAGAIN) means a wake-up is already pending, so it is not
//     an error; every other error is returned, never swallowed.
//   - Close releases the kernel objects. The Poller must not be used after.
//
// Readiness is level-triggered: an fd that is still readable is reported
// again on the next Wait. That is the forgiving mode for a learner's code (a
// callback that reads only part of the data is called again); edge-triggered
// mode saves system calls but loses data when a reader forgets to drain.
//
// Errors are wrapped with os.NewSyscallError so that they name the call that
// failed; nothing in this package panics.
package netpoll

import (
	"fmt"
	"time"
)

// Interest says which readiness a caller wants to hear about.
type Interest uint8

const (
	// Readable: data (or EOF, or an error) can be read without blocking.
	Readable Interest = 1 << iota
	// Writable: the send buffer has room, or a non-blocking connect finished.
	Writable
	// Invalid is never asked for. Wait reports it alone, for an fd that
	// was closed while registered (poll(2)'s POLLNVAL), and has already
	// forgotten the fd: reported as readable, it would be reported again
	// on every Wait, and the loop would spin.
	Invalid
)

// Token is an opaque value stored with a registration and returned with its
// events. The loop packs an fd number and a generation into it.
type Token uint64

// Event reports that a registered fd is ready.
type Event struct {
	Token Token
	// Ready holds Readable and/or Writable, or Invalid alone. Error and
	// hang-up conditions are reported as both, so that whichever callback
	// is waiting runs and finds the error with its own system call (as the
	// Go runtime does).
	Ready Interest
}

// Poller is the readiness API of one OS mechanism. See the package comment
// for the contract that every implementation keeps.
type Poller interface {
	Register(fd int, tok Token, in Interest) error
	Modify(fd int, tok Token, in Interest) error
	Deregister(fd int) error
	Wait(timeout time.Duration) ([]Event, error)
	Wake() error
	Close() error
	// Name is "epoll", "kqueue" or "poll".
	Name() string
}

// Open returns a Poller of the named kind: "epoll", "kqueue", "poll", or ""
// for the best one this OS has. An unknown or unavailable name is an error
// that lists the ones that are available.
func Open(name string) (Poller, error) {
	if name == "" {
		name = Available()[0]
	}
	for _, b := range backends {
		if b.name == name {
			return b.open()
		}
	}
	return nil, fmt.Errorf("netpoll: unknown or unavailable poller %q (this OS has %v)", name, Available())
}

// Available lists the pollers this OS has, best first.
func Available() []string {
	names := make([]string, len(backends))
	for i, b := range backends {
		names[i] = b.name
	}
	return names
}

type backend struct {
	name string
	open func() (Poller, error)
}

// timeoutMillis converts a wait timeout to the milliseconds that epoll_wait
// and poll take: negative means forever, and any positive duration under a
// millisecond becomes 1 ms rather than 0 (0 would make the caller spin).
func timeoutMillis(d time.Duration) int {
	if d < 0 {
		return -1
	}
	ms := (d + time.Millisecond - 1) / time.Millisecond
	const maxMillis = 1<<31 - 1
	if ms > maxMillis {
		return maxMillis
	}
	return int(ms)
}

const initialEvents = 128
