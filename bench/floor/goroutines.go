package floor

import (
	"errors"
	"io"
	"net"
	"time"

	"loopkit/bench/crawlrules"
	"loopkit/bench/gostyle"
	"loopkit/bench/workload"
)

// Goroutines runs a fetch job with a goroutine per keep-alive net.Conn,
// scheduled by bench/gostyle like every goroutine variant, each writing
// the hand-written request and framing the answer by its Content-Length.
func Goroutines(job workload.Job, m *workload.Meter) error {
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
	return gostyle.Workers(job, m, func() (gostyle.Get, func()) {
		c := &netConn{wire: w, buf: make([]byte, readSize)}
		return c.get, c.close
	})
}

var errCrawl = errors.New("floor: the floors fetch one URL; they do not crawl")

// netConn is one connection of the goroutine floor.
type netConn struct {
	wire
	nc  net.Conn
	buf []byte
}

// get sends the request (whatever url says: the floor has one) and reads
// its response.
func (c *netConn) get(string) (crawlrules.Response, error) {
	if c.nc == nil {
		nc, err := net.DialTimeout("tcp", c.addr, 10*time.Second)
		if err != nil {
			return crawlrules.Response{}, err
		}
		c.nc = nc
	}
	if _, err := c.nc.Write(c.request); err != nil {
		c.close()
		return crawlrules.Response{}, err
	}
	n := 0
	for {
		k, err := c.nc.Read(c.buf[n:])
		n += k
		status, length, ok, ferr := frame(c.buf[:n])
		switch {
		case ferr != nil:
			c.close()
			return crawlrules.Response{}, ferr
		case ok && n >= length:
			if n > length { // more than one response: out of step
				c.close()
			}
			return crawlrules.Response{Status: status}, nil
		case err == io.EOF:
			c.close()
			return crawlrules.Response{}, io.ErrUnexpectedEOF
		case err != nil:
			c.close()
			return crawlrules.Response{}, err
		}
	}
}

func (c *netConn) close() {
	if c.nc != nil {
		c.nc.Close()
		c.nc = nil
	}
}
