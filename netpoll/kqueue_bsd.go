//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package netpoll

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// kqueuer is the BSD and macOS backend. kqueue watches (fd, filter) pairs,
// so readability and writability are two registrations that come back as
// two events. The token is kept in a map rather than in the kevent's udata
// field, whose type differs from one BSD to the next.
type kqueuer struct {
	kq     int
	wake   *waker
	regs   map[int]kqReg
	raw    []unix.Kevent_t
	events []Event
}

type kqReg struct {
	tok Token
	in  Interest
}

func openKqueue() (Poller, error) {
	kq, err := unix.Kqueue()
	if err != nil {
		return nil, os.NewSyscallError("kqueue", err)
	}
	unix.CloseOnExec(kq)
	w, err := newWaker()
	if err != nil {
		unix.Close(kq)
		return nil, err
	}
	p := &kqueuer{kq: kq, wake: w, regs: make(map[int]kqReg), raw: make([]unix.Kevent_t, initialEvents)}
	var ch [1]unix.Kevent_t
	unix.SetKevent(&ch[0], w.readFD(), unix.EVFILT_READ, unix.EV_ADD|unix.EV_ENABLE)
	if _, err := unix.Kevent(kq, ch[:], nil, nil); err != nil {
		w.close()
		unix.Close(kq)
		return nil, os.NewSyscallError("kevent", err)
	}
	return p, nil
}

func (p *kqueuer) Name() string { return "kqueue" }

// apply turns the difference between two interests into kevent changes.
// A filter kept from old to new is re-enabled rather than left alone:
// EV_ENABLE on a filter the kernel dropped because the fd was closed fails
// with ENOENT (EBADF if the number is free), so Modify notices an fd closed
// while registered as epoll_ctl does, even when the interest is unchanged.
func (p *kqueuer) apply(fd int, old, new Interest) error {
	var ch [2]unix.Kevent_t
	n := 0
	for _, f := range [2]struct {
		in     Interest
		filter int
	}{{Readable, unix.EVFILT_READ}, {Writable, unix.EVFILT_WRITE}} {
		switch {
		case new&f.in != 0 && old&f.in != 0:
			unix.SetKevent(&ch[n], fd, f.filter, unix.EV_ENABLE)
			n++
		case new&f.in != 0:
			unix.SetKevent(&ch[n], fd, f.filter, unix.EV_ADD|unix.EV_ENABLE)
			n++
		case old&f.in != 0:
			unix.SetKevent(&ch[n], fd, f.filter, unix.EV_DELETE)
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if _, err := unix.Kevent(p.kq, ch[:n], nil, nil); err != nil {
		return os.NewSyscallError("kevent", err)
	}
	return nil
}

func (p *kqueuer) Register(fd int, tok Token, in Interest) error {
	if _, ok := p.regs[fd]; ok {
		return os.NewSyscallError("kevent", unix.EEXIST)
	}
	if err := p.apply(fd, 0, in); err != nil {
		return err
	}
	p.regs[fd] = kqReg{tok, in}
	return nil
}

func (p *kqueuer) Modify(fd int, tok Token, in Interest) error {
	r, ok := p.regs[fd]
	if !ok {
		return notRegistered("kevent", fd, unix.ENOENT)
	}
	if err := p.apply(fd, r.in, in); err != nil {
		return notRegisteredIfGone(fd, err)
	}
	p.regs[fd] = kqReg{tok, in}
	return nil
}

// Deregister forgets fd even if kevent fails: the kernel drops a closed
// fd's filters by itself, and the error says so.
func (p *kqueuer) Deregister(fd int) error {
	r, ok := p.regs[fd]
	if !ok {
		return notRegistered("kevent", fd, unix.ENOENT)
	}
	delete(p.regs, fd)
	return notRegisteredIfGone(fd, p.apply(fd, r.in, 0))
}

func (p *kqueuer) Wait(timeout time.Duration) ([]Event, error) {
	var n int
	err := retryOnEINTR(timeout, func(left time.Duration) (err error) {
		var ts *unix.Timespec
		if left >= 0 {
			t := unix.NsecToTimespec(int64(left))
			ts = &t
		}
		n, err = unix.Kevent(p.kq, nil, p.raw, ts)
		return err
	})
	if err != nil {
		return nil, os.NewSyscallError("kevent", err)
	}
	p.events = p.events[:0]
	for _, ev := range p.raw[:n] {
		fd := int(ev.Ident)
		if fd == p.wake.readFD() {
			if err := p.wake.drain(); err != nil {
				return nil, err
			}
			continue
		}
		r, ok := p.regs[fd]
		if !ok {
			continue // deregistered while the event was queued
		}
		var ready Interest
		switch {
		case ev.Flags&unix.EV_ERROR != 0:
			ready = Readable | Writable
		case ev.Filter == unix.EVFILT_READ:
			ready = Readable
		case ev.Filter == unix.EVFILT_WRITE:
			ready = Writable
		}
		p.events = append(p.events, Event{Token: r.tok, Ready: ready})
	}
	if n == len(p.raw) {
		p.raw = make([]unix.Kevent_t, 2*len(p.raw))
	}
	return p.events, nil
}

func (p *kqueuer) Wake() error { return p.wake.wake() }

func (p *kqueuer) Close() error {
	werr := p.wake.close()
	if err := unix.Close(p.kq); err != nil {
		return os.NewSyscallError("close", err)
	}
	return werr
}
