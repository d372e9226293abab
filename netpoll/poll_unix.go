//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package netpoll

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// poller is the portable backend: poll(2) exists on every Unix. It is
// O(registered fds) per Wait, where epoll and kqueue are O(ready fds), which
// is why it is the fallback; at a few hundred sockets the difference is
// small, and having it lets the tests run every scenario over two backends.
//
// The kernel is told the full list on every call, so registrations live
// here: pfds[i] and tokens[i] describe one fd, index maps an fd to i.
// pfds[0] is the waker.
type poller struct {
	wake   *waker
	pfds   []unix.PollFd
	tokens []Token
	index  map[int]int
	events []Event
	closed []int // fds found closed by the last Wait (POLLNVAL)
}

func openPoll() (Poller, error) {
	w, err := newWaker()
	if err != nil {
		return nil, err
	}
	p := &poller{wake: w, index: make(map[int]int), events: make([]Event, 0, initialEvents)}
	p.pfds = append(p.pfds, unix.PollFd{Fd: int32(w.readFD()), Events: unix.POLLIN})
	p.tokens = append(p.tokens, 0)
	return p, nil
}

func (p *poller) Name() string { return "poll" }

func pollFlags(in Interest) int16 {
	var flags int16
	if in&Readable != 0 {
		flags |= unix.POLLIN
	}
	if in&Writable != 0 {
		flags |= unix.POLLOUT
	}
	return flags
}

func (p *poller) Register(fd int, tok Token, in Interest) error {
	if _, ok := p.index[fd]; ok {
		return os.NewSyscallError("poll register", unix.EEXIST)
	}
	p.index[fd] = len(p.pfds)
	p.pfds = append(p.pfds, unix.PollFd{Fd: int32(fd), Events: pollFlags(in)})
	p.tokens = append(p.tokens, tok)
	return nil
}

func (p *poller) Modify(fd int, tok Token, in Interest) error {
	i, ok := p.index[fd]
	if !ok {
		return notRegistered("poll modify", fd, unix.ENOENT)
	}
	p.pfds[i].Events = pollFlags(in)
	p.tokens[i] = tok
	return nil
}

// Deregister moves the last entry into the freed slot, so removal is O(1).
func (p *poller) Deregister(fd int) error {
	i, ok := p.index[fd]
	if !ok {
		return notRegistered("poll deregister", fd, unix.ENOENT)
	}
	last := len(p.pfds) - 1
	p.pfds[i], p.tokens[i] = p.pfds[last], p.tokens[last]
	p.index[int(p.pfds[i].Fd)] = i
	p.pfds, p.tokens = p.pfds[:last], p.tokens[:last]
	delete(p.index, fd)
	return nil
}

func (p *poller) Wait(timeout time.Duration) ([]Event, error) {
	for i := range p.pfds {
		p.pfds[i].Revents = 0
	}
	var n int
	err := retryOnEINTR(timeout, func(left time.Duration) (err error) {
		n, err = unix.Poll(p.pfds, timeoutMillis(left))
		return err
	})
	if err != nil {
		return nil, os.NewSyscallError("poll", err)
	}
	p.events = p.events[:0]
	if n == 0 {
		return p.events, nil
	}
	if p.pfds[0].Revents != 0 {
		if p.pfds[0].Revents&unix.POLLNVAL != 0 {
			return nil, fmt.Errorf("netpoll: the wake-up descriptor was closed")
		}
		if err := p.wake.drain(); err != nil {
			return nil, err
		}
	}
	p.closed = p.closed[:0]
	for i := 1; i < len(p.pfds); i++ {
		if r := readyFromPoll(p.pfds[i].Revents); r != 0 {
			p.events = append(p.events, Event{Token: p.tokens[i], Ready: r})
			if r == Invalid {
				p.closed = append(p.closed, int(p.pfds[i].Fd))
			}
		}
	}
	// A closed fd is reported once, then forgotten. (Not inside the walk:
	// Deregister moves the last entry into the freed slot.)
	for _, fd := range p.closed {
		p.Deregister(fd)
	}
	return p.events, nil
}

func readyFromPoll(revents int16) Interest {
	if revents&unix.POLLNVAL != 0 {
		return Invalid // the fd is not open: it was closed while registered
	}
	var r Interest
	if revents&unix.POLLIN != 0 {
		r |= Readable
	}
	if revents&unix.POLLOUT != 0 {
		r |= Writable
	}
	if revents&(unix.POLLERR|unix.POLLHUP) != 0 {
		r |= Readable | Writable
	}
	return r
}

func (p *poller) Wake() error { return p.wake.wake() }

func (p *poller) Close() error { return p.wake.close() }
