package conns

import (
	"errors"
	"io"
	"net"
	"strconv"
	"time"

	"loopkit/bench/crawlrules"
	"loopkit/crawler/http1"
)

// fields are the header fields crawler/http1's Client sends with every
// request by default, so that both put the same bytes on the wire (a
// test compares them).
var fields = http1.Header{
	{Name: "User-Agent", Value: "loopkit/0.1 (+https://example.invalid/loopkit)"},
	{Name: "Accept", Value: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"},
	{Name: "Accept-Encoding", Value: "gzip"},
}

// The timeouts of crawler/http1's Client: connect, and the whole request.
const (
	connectTimeout = 10 * time.Second
	totalTimeout   = 2 * time.Minute
)

// readSize is a connection's read buffer. A goroutine parked in Read owns
// its buffer until data comes, so each connection needs its own; the loop
// reads every socket into one shared buffer instead (64 KiB), one of the
// things a callback client saves per connection. 4 KiB is what net/http's
// bufio.Reader holds per connection too.
const readSize = 4 << 10

// conn is one keep-alive connection to host, used by one goroutine at a
// time. It dials on first use, and again after the server closed it.
type conn struct {
	host   host // where it connects, and the only host it talks to
	nc     net.Conn
	uses   int // responses read on nc
	parser *http1.Parser
	buf    []byte
	head   []byte // the request being sent: one buffer for every request, as the Client's connections have
}

// host is a server a connection talks to: its name and port, compared
// field by field as the Client's pools are, with no string built.
type host struct {
	name string
	port int
}

func (h host) addr() string { return net.JoinHostPort(h.name, strconv.Itoa(h.port)) }

func newConn(h host) *conn {
	return &conn{host: h, parser: http1.NewParser("GET", http1.Limits{}), buf: make([]byte, readSize), head: make([]byte, 0, 512)}
}

// hostOf is the host a job's URL names: the site's.
func hostOf(url string) (host, error) {
	t, err := http1.ParseTarget(url)
	if err != nil {
		return host{}, err
	}
	return host{t.Hostname, t.Port}, nil
}

var errOtherHost = errors.New("conns: a client of this benchmark talks to one host")

// get sends a GET for url and reads its response, as crawler/http1's
// Client does for one exchange: parse the target, build the head, feed
// the parser what each read returns. A reused connection that fails
// before any byte of the response was most likely closed by the server
// while idle, and the request is sent once more on a fresh one, the same
// rule as the Client's.
func (c *conn) get(url string) (crawlrules.Response, error) {
	t, err := http1.ParseTarget(url)
	if err != nil {
		return crawlrules.Response{}, err
	}
	if t.Hostname != c.host.name || t.Port != c.host.port {
		return crawlrules.Response{}, errOtherHost
	}
	head, err := http1.AppendRequest(c.head[:0], "GET", t, fields)
	if err != nil {
		return crawlrules.Response{}, err
	}
	c.head = head
	resp, err := c.exchange(head)
	if err != nil && c.stale() {
		resp, err = c.exchange(head)
	}
	if err != nil {
		c.close()
		return crawlrules.Response{}, err
	}
	if resp.Close {
		c.close()
	}
	return crawlrules.Response{
		Status:      resp.StatusCode,
		ContentType: resp.Header.Get("Content-Type"),
		Location:    resp.Header.Get("Location"),
		Body:        resp.Body,
	}, nil
}

// stale says the last exchange failed the way a connection closed while
// idle fails, and closes it.
func (c *conn) stale() bool {
	stale := c.uses > 0 && !c.parser.Started()
	c.close()
	return stale
}

// exchange writes head and reads one response.
func (c *conn) exchange(head []byte) (*http1.Response, error) {
	if c.nc == nil {
		nc, err := net.DialTimeout("tcp", c.host.addr(), connectTimeout)
		if err != nil {
			return nil, err
		}
		c.nc, c.uses = nc, 0
	}
	// One deadline for the whole request, as the Client arms one loop
	// timer for its total timeout.
	if err := c.nc.SetDeadline(time.Now().Add(totalTimeout)); err != nil {
		return nil, err
	}
	c.parser.Reset("GET")
	if _, err := c.nc.Write(head); err != nil {
		return nil, err
	}
	for {
		n, err := c.nc.Read(c.buf)
		if n > 0 {
			used, perr := c.parser.Feed(c.buf[:n])
			if perr != nil {
				return nil, perr
			}
			if c.parser.Done() {
				c.uses++
				if used < n {
					// Bytes after the response leave the connection out
					// of step: the response stands, the connection goes.
					c.close()
				}
				return c.parser.Response(), nil
			}
		}
		if err == io.EOF {
			if perr := c.parser.CloseInput(); perr != nil {
				return nil, perr
			}
			c.uses++
			resp := c.parser.Response()
			resp.Close = true
			return resp, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (c *conn) close() {
	if c.nc != nil {
		c.nc.Close()
		c.nc = nil
	}
}
