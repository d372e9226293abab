//go:build linux

package floor

import (
	"errors"
	"fmt"
	"net"
	"runtime"
	"time"

	"golang.org/x/sys/unix"

	"loopkit/bench/workload"
)

// Epoll runs a fetch job on raw epoll: one goroutine, locked to its OS
// thread like a C client's only thread, job.Limit() non-blocking sockets,
// and one epoll_wait per turn. Level-triggered, as loopkit's netpoll is.
// This file and its Linux build tag are the only place in bench/ that
// names epoll and socket constants: the floor is meant to show the system
// calls bare.
func Epoll(job workload.Job, m *workload.Meter) error {
	if err := job.Check(); err != nil {
		return err
	}
	if job.Kind != workload.Fetch {
		return errCrawl
	}
	w, err := newWire(job.URL)
	if err != nil {
		return err
	}
	tcp, err := net.ResolveTCPAddr("tcp4", w.addr)
	if err != nil {
		return err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return fmt.Errorf("epoll_create1: %w", err)
	}
	c := &epollClient{epfd: epfd, req: w.request, limit: job.Limit(), m: m,
		events: make([]unix.EpollEvent, 256)}
	c.addr.Port = tcp.Port
	copy(c.addr.Addr[:], tcp.IP.To4())
	defer c.close()
	return c.run(job)
}

// rawConn is one socket and where its request stands.
type rawConn struct {
	fd         int // -1 when closed
	connecting bool
	busy       bool          // a request is in flight
	due        time.Duration // when that request was due (open loop)
	out        int           // request bytes still to write
	interest   uint32        // what epoll watches for it
	buf        []byte
	n          int // bytes of the response read so far
}

type epollClient struct {
	epfd   int
	addr   unix.SockaddrInet4
	req    []byte
	limit  int
	m      *workload.Meter
	events []unix.EpollEvent
	conns  []*rawConn // every connection made, at most limit
	byFD   []*rawConn // conns by their fd, to find an event's connection
	idle   []*rawConn // connections with nothing to do
	active int        // connections with a request in flight
	queue  []time.Duration
	paced  bool
}

func (c *epollClient) run(job workload.Job) error {
	c.paced = job.Paced()
	if !c.paced {
		for c.active < c.limit && c.m.Next() {
			c.send(c.freeConn(), 0)
		}
	}
	var pacer *workload.Pacer
	if c.paced {
		pacer = c.m.Pacer()
	}
	pacing := c.paced
	for {
		timeout := -1
		if pacing {
			next, done := pacer.Due(c.m.Now(), func(at time.Duration) { c.queue = append(c.queue, at) })
			c.dispatch()
			if done {
				pacing = false
			} else {
				// epoll_wait counts in milliseconds: round up, never spin.
				timeout = int((next - c.m.Now() + time.Millisecond - 1) / time.Millisecond)
				timeout = max(timeout, 0)
			}
		}
		if !pacing && len(c.queue) > 0 {
			if c.m.Expired() { // the client fell hopelessly behind
				for _, at := range c.queue {
					c.m.GiveUp(at)
				}
				c.queue = nil
			} else {
				timeout = 50 // look at the clock again soon
			}
		}
		if !pacing && c.active == 0 && len(c.queue) == 0 {
			return nil
		}
		n, err := unix.EpollWait(c.epfd, c.events, timeout)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("epoll_wait: %w", err)
		}
		for _, ev := range c.events[:n] {
			if fd := int(ev.Fd); fd < len(c.byFD) && c.byFD[fd] != nil {
				c.onEvent(c.byFD[fd], ev.Events)
			}
		}
	}
}

// freeConn is an idle connection, or a new one while under the limit, or
// nil.
func (c *epollClient) freeConn() *rawConn {
	if k := len(c.idle); k > 0 {
		rc := c.idle[k-1]
		c.idle = c.idle[:k-1]
		return rc
	}
	if len(c.conns) < c.limit {
		rc := &rawConn{fd: -1, buf: make([]byte, readSize)}
		c.conns = append(c.conns, rc)
		return rc
	}
	return nil
}

// dispatch sends queued requests (open loop) on free connections.
func (c *epollClient) dispatch() {
	for len(c.queue) > 0 {
		rc := c.freeConn()
		if rc == nil {
			return
		}
		at := c.queue[0]
		c.queue = c.queue[1:]
		c.send(rc, at)
	}
}

// send starts a request on rc: connect first if it has no socket.
func (c *epollClient) send(rc *rawConn, due time.Duration) {
	rc.busy, rc.due, rc.n, rc.out = true, due, 0, len(c.req)
	c.active++
	if rc.fd >= 0 {
		c.flush(rc)
		return
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		c.fail(rc, fmt.Errorf("socket: %w", err))
		return
	}
	rc.fd = fd
	for fd >= len(c.byFD) {
		c.byFD = append(c.byFD, nil)
	}
	c.byFD[fd] = rc
	_ = unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1) // as Go's net and loopkit's netpoll do
	if err := unix.Connect(fd, &c.addr); err != nil && err != unix.EINPROGRESS {
		c.fail(rc, fmt.Errorf("connect: %w", err))
		return
	}
	rc.connecting = true
	rc.interest = unix.EPOLLOUT
	if err := unix.EpollCtl(c.epfd, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: rc.interest, Fd: int32(fd)}); err != nil {
		c.fail(rc, fmt.Errorf("epoll_ctl: %w", err))
	}
}

// flush writes what is left of the request, and watches for readability
// once it is all out (for writability if the socket took only part).
func (c *epollClient) flush(rc *rawConn) {
	for rc.out > 0 {
		k, err := unix.Write(rc.fd, c.req[len(c.req)-rc.out:])
		if err == unix.EAGAIN {
			c.watch(rc, unix.EPOLLOUT)
			return
		}
		if err != nil {
			c.fail(rc, fmt.Errorf("write: %w", err))
			return
		}
		rc.out -= k
	}
	c.watch(rc, unix.EPOLLIN)
}

func (c *epollClient) watch(rc *rawConn, interest uint32) {
	if rc.interest == interest {
		return
	}
	rc.interest = interest
	if err := unix.EpollCtl(c.epfd, unix.EPOLL_CTL_MOD, rc.fd, &unix.EpollEvent{Events: interest, Fd: int32(rc.fd)}); err != nil {
		c.fail(rc, fmt.Errorf("epoll_ctl: %w", err))
	}
}

func (c *epollClient) onEvent(rc *rawConn, events uint32) {
	switch {
	case rc.connecting:
		if soErr, err := unix.GetsockoptInt(rc.fd, unix.SOL_SOCKET, unix.SO_ERROR); err != nil || soErr != 0 {
			c.fail(rc, fmt.Errorf("connect: %w", errors.Join(err, unix.Errno(soErr))))
			return
		}
		rc.connecting = false
		c.flush(rc)
	case rc.out > 0:
		c.flush(rc)
	default:
		c.read(rc)
	}
}

func (c *epollClient) read(rc *rawConn) {
	k, err := unix.Read(rc.fd, rc.buf[rc.n:])
	switch {
	case err == unix.EAGAIN:
		return
	case err != nil:
		c.fail(rc, fmt.Errorf("read: %w", err))
		return
	case k == 0 && !rc.busy: // the server closed an idle connection
		c.closeConn(rc)
		return
	case k == 0:
		c.fail(rc, errors.New("connection closed mid-response"))
		return
	}
	rc.n += k
	status, length, ok, ferr := frame(rc.buf[:rc.n])
	switch {
	case ferr != nil:
		c.fail(rc, ferr)
	case ok && rc.n >= length:
		if rc.n > length { // more than one response: out of step
			c.closeConn(rc)
		}
		c.done(rc, status, nil)
	}
}

// done tallies rc's request and gives rc its next one, if any.
func (c *epollClient) done(rc *rawConn, status int, err error) {
	rc.busy = false
	c.active--
	if c.paced {
		c.m.CountAt(rc.due, status, err)
		c.idle = append(c.idle, rc)
		c.dispatch()
		return
	}
	c.m.Count(status, err)
	if c.m.Next() {
		c.send(rc, 0)
	} else {
		c.idle = append(c.idle, rc)
	}
}

// fail closes rc after an error; its request, if any, failed.
func (c *epollClient) fail(rc *rawConn, err error) {
	c.closeConn(rc)
	if rc.busy {
		c.done(rc, 0, err)
	}
}

func (c *epollClient) closeConn(rc *rawConn) {
	if rc.fd < 0 {
		return
	}
	c.byFD[rc.fd] = nil
	unix.Close(rc.fd) // closing also takes it out of the epoll set
	rc.fd, rc.connecting, rc.interest = -1, false, 0
}

func (c *epollClient) close() {
	for _, rc := range c.conns {
		c.closeConn(rc)
	}
	unix.Close(c.epfd)
}
