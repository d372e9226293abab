package netpoll

import (
	"testing"

	"golang.org/x/sys/unix"
)

// The OS flags each backend turns into readiness. An fd readable and
// writable at once is both; an error or a hang-up alone must wake both
// callbacks (see Event.Ready); POLLNVAL is Invalid.
func TestReadinessFromOSFlags(t *testing.T) {
	both := Readable | Writable
	for _, c := range []struct {
		epoll uint32
		want  Interest
	}{
		{unix.EPOLLIN, Readable}, {unix.EPOLLRDHUP, Readable}, {unix.EPOLLOUT, Writable},
		{unix.EPOLLIN | unix.EPOLLOUT, both}, {unix.EPOLLRDHUP | unix.EPOLLOUT, both},
		{unix.EPOLLERR, both}, {unix.EPOLLHUP, both},
	} {
		if got := readyFromEpoll(c.epoll); got != c.want {
			t.Errorf("readyFromEpoll(%#x) = %v, want %v", c.epoll, got, c.want)
		}
	}
	for _, c := range []struct {
		poll int16
		want Interest
	}{
		{unix.POLLIN, Readable}, {unix.POLLOUT, Writable}, {unix.POLLIN | unix.POLLOUT, both}, {unix.POLLERR, both},
		{unix.POLLHUP, both}, {unix.POLLNVAL, Invalid}, {unix.POLLNVAL | unix.POLLIN, Invalid},
	} {
		if got := readyFromPoll(c.poll); got != c.want {
			t.Errorf("readyFromPoll(%#x) = %v, want %v", c.poll, got, c.want)
		}
	}
}
