package site

import (
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
)

// Where a site of several hosts listens when it is given port 0. One host takes
// whatever port the OS picks. Several need consecutive ports, which the OS cannot
// pick, and which are hard to find where it picks from: its ephemeral range, where
// every outgoing connection also takes a port and keeps it for a minute in TIME_WAIT
// once closed. On a machine busy with local benchmarks, most ports of that range are
// held (Linux gives connections even ports and listeners odd ones, so two ports in a
// row are almost never both free there). So the site picks a random run of ports
// below 32768, where Linux's ephemeral range starts (macOS's starts at 49152), and
// tries another if one of them is taken.
const (
	lowPort     = 20000
	highPort    = 32768 // one past the last port tried
	listenTries = 20
)

// listenFunc is net.Listen; tests pass one that takes a port first, to make a collision.
type listenFunc func(network, address string) (net.Listener, error)

// listenHosts opens n listeners on consecutive ports, from addr's: host h on port+h.
// With port 0, one host listens where the OS says, and several on a run of free ports
// that listenHosts finds (see lowPort). Any other port is taken as asked, or Start
// fails: a site that moved would be another site to a crawl that resumes.
func listenHosts(addr string, n int, listen listenFunc) ([]net.Listener, error) {
	if n == 1 {
		ln, err := listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("site: %w", err)
		}
		return []net.Listener{ln}, nil
	}
	host, service, _ := net.SplitHostPort(addr) // checkAddr has checked it
	port, err := net.LookupPort("tcp", service)
	if err != nil {
		return nil, fmt.Errorf("%w: address %q: %v", ErrConfig, addr, err)
	}
	if port > 0 && port+n-1 > 65535 {
		return nil, fmt.Errorf("%w: %d hosts from port %d need ports up to %d, beyond 65535", ErrConfig, n, port, port+n-1)
	}
	if port > 0 {
		lns, err := listenFrom(host, port, n, listen)
		if err != nil {
			closeAll(lns)
			return nil, fmt.Errorf("site: %w", err)
		}
		return lns, nil
	}
	var lns []net.Listener
	for range listenTries {
		base := lowPort + rand.IntN(highPort-lowPort-n+1)
		lns, err = listenFrom(host, base, n, listen)
		if err == nil {
			return lns, nil
		}
		closeAll(lns)
	}
	return nil, fmt.Errorf("site: no %d free consecutive ports from %d to %d after %d tries; the last: %w",
		n, lowPort, highPort-1, listenTries, err)
}

// listenFrom listens on port and the n-1 ports after it. It returns the listeners it
// opened, all of them or those it opened before the error: the caller closes them.
func listenFrom(host string, port, n int, listen listenFunc) ([]net.Listener, error) {
	first, err := listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	lns := []net.Listener{first}
	// The others listen on the IP the first got, not on its name again: "localhost"
	// might resolve to another address the second time.
	ip, _, _ := net.SplitHostPort(first.Addr().String())
	for h := 1; h < n; h++ {
		ln, err := listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port+h)))
		if err != nil {
			return lns, fmt.Errorf("host %d of %d: %w", h, n, err)
		}
		lns = append(lns, ln)
	}
	return lns, nil
}

func closeAll(lns []net.Listener) {
	for _, ln := range lns {
		ln.Close()
	}
}
