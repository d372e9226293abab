//go:build linux

package netpoll

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// epoller is the Linux backend. The token travels inside epoll's own data
// field (64 bits: the Fd and Pad words of EpollEvent), so no lookup table is
// needed to map an event back to its registration.
type epoller struct {
	epfd   int
	wake   *waker
	raw    []unix.EpollEvent
	events []Event
}

// wakeToken marks the waker's own registration. The loop never uses it:
// its tokens always carry a non-zero generation in the high half.
const wakeToken = Token(1<<64 - 1)

func openEpoll() (Poller, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("epoll_create1", err)
	}
	w, err := newWaker()
	if err != nil {
		unix.Close(epfd)
		return nil, err
	}
	p := &epoller{epfd: epfd, wake: w, raw: make([]unix.EpollEvent, initialEvents)}
	if err := p.ctl(unix.EPOLL_CTL_ADD, w.readFD(), wakeToken, Readable); err != nil {
		w.close()
		unix.Close(epfd)
		return nil, err
	}
	return p, nil
}

func (p *epoller) Name() string { return "epoll" }

func epollFlags(in Interest) uint32 {
	var flags uint32
	if in&Readable != 0 {
		// EPOLLRDHUP reports a peer's half-close as readable too, so the
		// reader sees EOF promptly.
		flags |= unix.EPOLLIN | unix.EPOLLRDHUP
	}
	if in&Writable != 0 {
		flags |= unix.EPOLLOUT
	}
	return flags
}

func (p *epoller) ctl(op, fd int, tok Token, in Interest) error {
	ev := unix.EpollEvent{Events: epollFlags(in)}
	ev.Fd, ev.Pad = int32(uint32(tok)), int32(uint32(tok>>32))
	if err := unix.EpollCtl(p.epfd, op, fd, &ev); err != nil {
		return os.NewSyscallError("epoll_ctl", err)
	}
	return nil
}

func (p *epoller) Register(fd int, tok Token, in Interest) error {
	err := p.ctl(unix.EPOLL_CTL_ADD, fd, tok, in)
	if errors.Is(err, unix.EEXIST) {
		// epoll keys a registration by (open file, fd number) and drops it
		// only when the file is closed. If fd was closed while registered
		// but a duplicate kept the file open, and the number has come back
		// to that file (dup2), the old registration is still here: make it
		// the one asked for now.
		return p.ctl(unix.EPOLL_CTL_MOD, fd, tok, in)
	}
	return err
}

// Modify and Deregister of an fd that was closed while registered fail
// with EBADF, or ENOENT if its number belongs to a new file now: both mean
// the registration is gone.
func (p *epoller) Modify(fd int, tok Token, in Interest) error {
	return notRegisteredIfGone(fd, p.ctl(unix.EPOLL_CTL_MOD, fd, tok, in))
}

func (p *epoller) Deregister(fd int) error {
	if err := unix.EpollCtl(p.epfd, unix.EPOLL_CTL_DEL, fd, nil); err != nil {
		return notRegisteredIfGone(fd, os.NewSyscallError("epoll_ctl", err))
	}
	return nil
}

func (p *epoller) Wait(timeout time.Duration) ([]Event, error) {
	var n int
	err := retryOnEINTR(timeout, func(left time.Duration) (err error) {
		n, err = unix.EpollWait(p.epfd, p.raw, timeoutMillis(left))
		return err
	})
	if err != nil {
		return nil, os.NewSyscallError("epoll_wait", err)
	}
	p.events = p.events[:0]
	for _, ev := range p.raw[:n] {
		tok := Token(uint32(ev.Fd)) | Token(uint32(ev.Pad))<<32
		if tok == wakeToken {
			if err := p.wake.drain(); err != nil {
				return nil, err
			}
			continue
		}
		p.events = append(p.events, Event{Token: tok, Ready: readyFromEpoll(ev.Events)})
	}
	if n == len(p.raw) {
		p.raw = make([]unix.EpollEvent, 2*len(p.raw))
	}
	return p.events, nil
}

func readyFromEpoll(flags uint32) Interest {
	var r Interest
	if flags&(unix.EPOLLIN|unix.EPOLLRDHUP) != 0 {
		r |= Readable
	}
	if flags&unix.EPOLLOUT != 0 {
		r |= Writable
	}
	if flags&(unix.EPOLLERR|unix.EPOLLHUP) != 0 {
		r |= Readable | Writable
	}
	return r
}

func (p *epoller) Wake() error { return p.wake.wake() }

func (p *epoller) Close() error {
	werr := p.wake.close()
	if err := unix.Close(p.epfd); err != nil {
		return os.NewSyscallError("close", err)
	}
	return werr
}
