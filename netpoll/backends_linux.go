//go:build linux

package netpoll

// On Linux epoll is the native mechanism; poll(2) is kept as the portable
// second backend so the whole test suite can run over both.
var backends = []backend{
	{"epoll", openEpoll},
	{"poll", openPoll},
}
