//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package netpoll

var backends = []backend{
	{"kqueue", openKqueue},
	{"poll", openPoll},
}
