//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package netpoll

func newWaker() (*waker, error) {
	r, w, err := nonblockingPipe()
	if err != nil {
		return nil, err
	}
	return &waker{rfd: r, wfd: w}, nil
}
