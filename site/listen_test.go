package site

import (
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// Start listens on consecutive ports; the ports it was given or none.
func TestHostsListenOnConsecutivePorts(t *testing.T) {
	s := startSite(t, Config{Pages: 50, Hosts: 5})
	urls := s.URLs()
	if len(urls) != 5 || urls[0] != s.URL() {
		t.Fatalf("URLs() = %v, URL() = %s", urls, s.URL())
	}
	base := portOf(strings.TrimSuffix(strings.TrimPrefix(s.URL(), "http://"), "/"))
	if base < lowPort || base+4 >= highPort {
		t.Errorf("ports %d to %d, want a run in [%d, %d)", base, base+4, lowPort, highPort)
	}
	c := newClient(t)
	for h, u := range urls {
		if want := "http://127.0.0.1:" + strconv.Itoa(base+h) + "/"; u != want {
			t.Errorf("host %d: %s, want %s", h, u, want)
		}
		if resp, _ := get(t, c, u+"robots.txt"); resp.StatusCode != http.StatusOK {
			t.Errorf("host %d: robots.txt: %s", h, resp.Status)
		}
	}

	// A port after the first that is taken: Start fails, and gives back the first.
	first, taken := freePortBeforeTaken(t)
	defer taken.Close()
	if _, err := Start(Config{Pages: 10, Hosts: 3}, first); err == nil || !strings.Contains(err.Error(), "host 1 of 3") {
		t.Errorf("Start on %s with the next port taken: %v, want an error for host 1 of 3", first, err)
	}
	ln, err := net.Listen("tcp", first)
	if err != nil {
		t.Fatalf("Start kept %s after failing: %v", first, err)
	}
	ln.Close()
}

// freePortBeforeTaken finds a free port whose next port it can take, and returns the
// free one's address and the listener on the next. It looks where listenHosts does:
// in the OS's own range, the next port is often a client's.
func freePortBeforeTaken(t *testing.T) (string, net.Listener) {
	t.Helper()
	for range 50 {
		addr := "127.0.0.1:" + strconv.Itoa(lowPort+rand.IntN(highPort-lowPort-1))
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			continue
		}
		ln.Close()
		if next, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(portOf(addr)+1)); err == nil {
			return addr, next
		}
	}
	t.Fatal("no free port followed by one that could be taken, in 50 tries")
	return "", nil
}

// With port 0, a taken port in the run makes Start try another run; ports it cannot
// have at all end in a clear error, every listener closed.
func TestHostsRetryOnCollision(t *testing.T) {
	var attempts, opened, closed int
	var grabbed []net.Listener
	defer func() { closeAll(grabbed) }()
	// collide takes, for real, the second port of the first `times` runs just before
	// listenHosts asks for it. A run is what listenFrom does: it stops at its first
	// failed listen, so a run starts with the first call and after every failure.
	// (Not "a port that does not follow the last": a random run can start right
	// after the last one, on a port grabbed or in use by someone else, and that run
	// would go uncounted.) A port the machine already uses fails a run for real:
	// it is counted, as listenHosts counts it.
	collide := func(times int) listenFunc {
		attempts = 0
		newRun, first := true, 0
		return func(network, addr string) (net.Listener, error) {
			port := portOf(addr)
			if newRun {
				attempts++
				first = port
			} else if port == first+1 && attempts <= times {
				if ln, err := net.Listen(network, addr); err == nil {
					grabbed = append(grabbed, ln)
				}
			}
			ln, err := net.Listen(network, addr)
			newRun = err != nil
			if err != nil {
				return nil, err
			}
			opened++
			return countClose{ln, &closed}, nil
		}
	}

	lns, err := listenHosts("127.0.0.1:0", 3, collide(2))
	if err != nil {
		t.Fatalf("two collisions: %v", err)
	}
	base := portOf(lns[0].Addr().String())
	for h, ln := range lns {
		if p := portOf(ln.Addr().String()); p != base+h || p < lowPort || p >= highPort {
			t.Errorf("listener %d on port %d, want %d, in [%d, %d)", h, p, base+h, lowPort, highPort)
		}
		ln.Close()
	}
	if attempts < 3 || opened != closed {
		t.Errorf("%d runs tried, %d listeners opened, %d closed; want 3 runs or more, every listener closed", attempts, opened, closed)
	}

	opened, closed = 0, 0
	_, err = listenHosts("127.0.0.1:0", 3, collide(listenTries))
	if err == nil || !strings.Contains(err.Error(), "consecutive ports from 20000 to 32767 after 20 tries") {
		t.Errorf("a collision every time: %v", err)
	}
	if attempts != listenTries || opened != closed {
		t.Errorf("%d runs tried, %d listeners opened, %d closed; want %d runs, every listener closed", attempts, opened, closed, listenTries)
	}
}

type countClose struct {
	net.Listener
	closed *int
}

func (c countClose) Close() error {
	*c.closed++
	return c.Listener.Close()
}

// Bad host counts and port ranges are configuration errors, on one line.
func TestHostsBadConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		addr string
	}{
		{Config{Hosts: -1}, ""},
		{Config{Hosts: maxHosts + 1}, ""},
		{Config{Hosts: 3}, "127.0.0.1:65534"},
		{Config{Hosts: 2}, "127.0.0.1:nonsense"},
	} {
		_, err := Start(tc.cfg, tc.addr)
		if !errors.Is(err, ErrConfig) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v on %q: %v, want a configuration error on one line", tc.cfg, tc.addr, err)
		}
	}
}
