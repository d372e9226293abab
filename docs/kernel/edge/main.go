//go:build linux

// Command edge shows the difference between level-triggered and
// edge-triggered epoll, the two ways the kernel can tell a program that a
// socket is readable. It talks to epoll directly (golang.org/x/sys/unix):
// it is a demonstration of the OS API, not of loopkit, which keeps every
// OS constant in netpoll and registers level-triggered only.
//
//	go run ./docs/kernel/edge
//
// Two sockets get the same 10 bytes. One is watched level-triggered, the
// other edge-triggered (EPOLLET), and each reader takes at most 4 bytes
// per wake-up, as a careless reader does. docs/kernel.md reads the output.
package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// watched is one socket pair and the epoll instance watching its reading end.
type watched struct {
	name       string
	epfd       int
	reader     int
	writer     int
	unread     int
	eventsSeen int
}

func newWatched(name string, flags uint32) (*watched, error) {
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("socketpair: %w", err)
	}
	w := &watched{name: name, epfd: -1, reader: pair[0], writer: pair[1]}
	if w.epfd, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		w.close()
		return nil, fmt.Errorf("epoll_create1: %w", err)
	}
	ev := unix.EpollEvent{Events: flags, Fd: int32(w.reader)}
	if err := unix.EpollCtl(w.epfd, unix.EPOLL_CTL_ADD, w.reader, &ev); err != nil {
		w.close()
		return nil, fmt.Errorf("epoll_ctl: %w", err)
	}
	return w, nil
}

func (w *watched) close() {
	if w.epfd >= 0 {
		unix.Close(w.epfd)
	}
	unix.Close(w.reader)
	unix.Close(w.writer)
}

// send makes n more bytes arrive at the reader.
func (w *watched) send(n int) error {
	if _, err := unix.Write(w.writer, make([]byte, n)); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	w.unread += n
	return nil
}

// wake asks epoll, without sleeping, whether the reader is readable, and
// if it is, reads at most 4 bytes — and says what happened.
func (w *watched) wake() (string, error) {
	events := make([]unix.EpollEvent, 1)
	n, err := unix.EpollWait(w.epfd, events, 0)
	if err != nil {
		return "", fmt.Errorf("epoll_wait: %w", err)
	}
	if n == 0 {
		if w.unread > 0 {
			return fmt.Sprintf("not woken, %d bytes unread", w.unread), nil
		}
		return "not woken", nil
	}
	w.eventsSeen++
	buf := make([]byte, 4)
	got, err := unix.Read(w.reader, buf)
	if err != nil {
		return "", fmt.Errorf("read: %w", err)
	}
	w.unread -= got
	return fmt.Sprintf("woken, read %d, %d left", got, w.unread), nil
}

func run(out io.Writer) error {
	level, err := newWatched("level-triggered", unix.EPOLLIN)
	if err != nil {
		return err
	}
	defer level.close()
	edge, err := newWatched("edge-triggered", unix.EPOLLIN|unix.EPOLLET)
	if err != nil {
		return err
	}
	defer edge.close()

	fmt.Fprintln(out, "10 bytes arrive on each socket; each reader takes at most 4 per wake-up.")
	fmt.Fprintf(out, "%-8s %-28s %s\n", "", level.name, edge.name)
	both := []*watched{level, edge}
	for _, w := range both {
		if err := w.send(10); err != nil {
			return err
		}
	}
	round := 0
	wakeBoth := func(times int) error {
		for range times {
			round++
			var said [2]string
			for i, w := range both {
				if said[i], err = w.wake(); err != nil {
					return err
				}
			}
			fmt.Fprintf(out, "wait %-3d %-28s %s\n", round, said[0], said[1])
		}
		return nil
	}
	if err := wakeBoth(4); err != nil {
		return err
	}
	fmt.Fprintln(out, "1 more byte arrives on each socket.")
	for _, w := range both {
		if err := w.send(1); err != nil {
			return err
		}
	}
	if err := wakeBoth(2); err != nil {
		return err
	}
	fmt.Fprintf(out, "level-triggered: woken %d times, all read; edge-triggered: woken %d times, %d bytes never read.\n",
		level.eventsSeen, edge.eventsSeen, edge.unread)
	return nil
}
