//go:build linux || dragonfly || freebsd

package netpoll

import "golang.org/x/sys/unix"

// accept sets non-blocking and close-on-exec in the same call.
func accept(fd int) (int, unix.Sockaddr, error) {
	return unix.Accept4(fd, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
}
