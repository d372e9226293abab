// Package floor holds the benchmark's floors: the least an HTTP/1.1 client
// can do, so that the other variants' costs can be read against it.
//
//   - Epoll: one goroutine on one locked OS thread, raw non-blocking
//     sockets and epoll(7) through golang.org/x/sys/unix, no loop library,
//     no futures, no timers but the pacing: the minimal epoll client of
//     the project's brief. Linux only.
//   - Goroutines: the same bytes and the same framing, a goroutine per
//     keep-alive net.Conn.
//
// Both send a hand-written request (a request line and a Host, nothing
// else) and frame the response by its Content-Length, which is all the
// site's /delay endpoint needs and all either of them understands: they
// fetch, they do not crawl. The pair is the scheduler comparison with
// the HTTP work taken away.
package floor

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
)

// readSize is each connection's buffer: a whole response to /delay, with
// room to spare.
const readSize = 4 << 10

// wire is what the floors put on the wire and where.
type wire struct {
	addr    string // host:port to dial
	request []byte
}

// newWire writes the request for a job's URL once, by hand.
func newWire(rawURL string) (wire, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return wire{}, err
	}
	if u.Scheme != "http" || u.Port() == "" {
		return wire{}, fmt.Errorf("floor: %q: an http URL with a port, please", rawURL)
	}
	return wire{
		addr:    net.JoinHostPort(u.Hostname(), u.Port()),
		request: []byte("GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\n\r\n"),
	}, nil
}

var errNoLength = errors.New("floor: a response without Content-Length (the floors understand no other framing)")

// frame looks at the bytes of a response read so far. Once its head is
// complete it returns the status and the length of the whole response;
// until then, ok is false.
func frame(b []byte) (status, length int, ok bool, err error) {
	end := bytes.Index(b, []byte("\r\n\r\n"))
	if end < 0 {
		if len(b) >= readSize {
			return 0, 0, false, errors.New("floor: a response head larger than the buffer")
		}
		return 0, 0, false, nil
	}
	head := b[:end]
	if len(head) < 12 || !bytes.HasPrefix(head, []byte("HTTP/1.")) {
		return 0, 0, false, fmt.Errorf("floor: not an HTTP/1.x response: %q", head[:min(len(head), 20)])
	}
	status, err = strconv.Atoi(string(head[9:12]))
	if err != nil {
		return 0, 0, false, fmt.Errorf("floor: bad status line %q", head)
	}
	rest := head
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\r\n"))
		name, value, found := bytes.Cut(line, []byte(":"))
		if found && bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			n, err := strconv.Atoi(string(bytes.TrimSpace(value)))
			if err != nil || n < 0 {
				return 0, 0, false, fmt.Errorf("floor: bad Content-Length %q", value)
			}
			if end+4+n > readSize {
				return 0, 0, false, errors.New("floor: a response larger than the buffer")
			}
			return status, end + 4 + n, true, nil
		}
	}
	return 0, 0, false, errNoLength
}
