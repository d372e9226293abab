package site

import (
	"io"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Each host counts its own requests and connections; the site's Stats are the totals,
// and /stats on any host says the same. Reset starts every host anew.
func TestHostsStats(t *testing.T) {
	s := startSite(t, Config{Pages: 50, Hosts: 3})
	c := newClient(t)
	urls := s.URLs()
	for h, n := range []int{1, 2, 4} {
		for range n {
			get(t, c, urls[h])
		}
	}
	get(t, c, urls[2]+"trap/comment.html")
	for h := range 3 {
		st := stats(t, c, &Site{addr: hostAddr(s.addr, h)}) // /stats of host h, over HTTP
		if st.Requests != 8 || st.Paths["/"] != 7 || st.TrapHits != 1 || len(st.Hosts) != 3 {
			t.Fatalf("/stats of host %d: %+v", h, st)
		}
		for i, want := range []int64{1, 2, 5} {
			hs := st.Hosts[i]
			if hs.Requests != want || hs.Conns != 1 || hs.OpenConns != 1 || hs.Hosts != nil {
				t.Errorf("/stats of host %d: host %d: %+v, want %d requests over one connection", h, i, hs, want)
			}
		}
		if st.Hosts[2].TrapHits != 1 || st.Hosts[2].Paths["/trap/comment.html"] != 1 || st.Hosts[0].TrapHits != 0 {
			t.Errorf("/stats of host %d: the trap is not host 2's: %+v", h, st.Hosts)
		}
		if st.Conns != 3 || st.PeakConns != 3 {
			t.Errorf("/stats of host %d: %d connections, at most %d at once; want 3, 3", h, st.Conns, st.PeakConns)
		}
	}
	get(t, c, urls[1]+"reset")
	st := s.Stats()
	if st.Requests != 0 || len(st.Paths) != 0 || st.TrapHits != 0 {
		t.Errorf("after /reset: %+v", st)
	}
	for h, hs := range st.Hosts {
		if hs.Requests != 0 || len(hs.Paths) != 0 || hs.OpenConns != 1 || hs.PeakConns != 1 {
			t.Errorf("after /reset: host %d: %+v, want no requests and its open connection", h, hs)
		}
	}
}

// The site's peak in flight is a peak of the whole site, not a sum of the hosts' peaks:
// requests to three hosts one after another peak at 1 on each and 1 in all; at once,
// at 3 in all.
func TestHostsPeakInFlight(t *testing.T) {
	s := startSite(t, Config{Pages: 10, Hosts: 3})
	c := newClient(t)
	for _, u := range s.URLs() {
		get(t, c, u+"delay?ms=20")
	}
	if st := s.Stats(); st.PeakInFlight != 1 {
		t.Errorf("one at a time: the site's peak is %d, want 1", st.PeakInFlight)
	}
	s.Reset()
	var wg sync.WaitGroup
	for _, u := range s.URLs() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			get(t, c, u+"delay?ms=300")
		}()
	}
	waitFor(t, "three requests in flight", func() bool { return s.Stats().InFlight == 3 })
	wg.Wait()
	st := s.Stats()
	if st.PeakInFlight != 3 {
		t.Errorf("three at once: the site's peak is %d, want 3", st.PeakInFlight)
	}
	for h, hs := range st.Hosts {
		if hs.PeakInFlight != 1 {
			t.Errorf("three at once: host %d peaked at %d, want 1", h, hs.PeakInFlight)
		}
	}
}

// The fault endpoints are on every host, and count their failures per host: a
// /flaky id that failed on one host fails again on the next.
func TestHostsFaultsPerHost(t *testing.T) {
	s := startSite(t, Config{Pages: 10, Hosts: 2})
	c := newClient(t)
	for h, u := range s.URLs() {
		for i, want := range []int{503, 200} {
			if resp, _ := get(t, c, u+"flaky?id=x&fail=1"); resp.StatusCode != want {
				t.Errorf("host %d, request %d: %s, want %d", h, i+1, resp.Status, want)
			}
		}
	}
}

// Close stops every host: no connection left open, no goroutine left behind, and one
// grace period for all, not one each. On every host, one request hangs (released at
// once by Close) and one is still being sent, which holds the host's shutdown for the
// whole grace period.
func TestHostsCloseLeavesNoGoroutines(t *testing.T) {
	const hosts = 4
	before := runtime.NumGoroutine()
	s, err := Start(Config{Pages: 50, Hosts: hosts}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	c := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var wg sync.WaitGroup
	for _, u := range s.URLs() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp, err := c.Get(u + "hang"); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	for h := range hosts {
		halfRequest(t, s, h)
	}
	waitFor(t, "a request in flight and two connections on every host", func() bool {
		st := s.Stats()
		return st.InFlight == hosts && st.OpenConns == 2*hosts
	})

	start := time.Now()
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not return in 20s")
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Close took %v: more than one grace period of a second", took)
	}
	wg.Wait()
	tr.CloseIdleConnections()
	// A connection cut by the server after the grace period is counted closed by its
	// own goroutine, a moment after Close has returned.
	waitFor(t, "every connection closed", func() bool {
		st := s.Stats()
		return st.OpenConns == 0 && st.InFlight == 0
	})
	for _, u := range s.URLs() {
		if _, err := c.Get(u); err == nil {
			t.Errorf("%s still answers after Close", u)
		}
	}
	waitFor(t, "the goroutines to end", func() bool { return runtime.NumGoroutine() <= before+2 })
}

// halfRequest sends host h the start of a request and never the end of its headers:
// http.Server.Shutdown waits for such a connection (it may be a request on its way)
// until the grace period is over. The connection closes when the test ends.
func halfRequest(t *testing.T, s *Site, h int) {
	t.Helper()
	conn, err := net.Dial("tcp", hostAddr(s.addr, h))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: "+hostAddr(s.addr, h)+"\r\n"); err != nil {
		t.Fatal(err)
	}
}

// The same Config on the same ports is the same site, byte for byte: what a crawl
// that stops and starts again relies on.
func TestHostsSameConfigSamePortsSameSite(t *testing.T) {
	cfg := Config{Pages: 200, Hosts: 3, Seed: 11}
	a, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	want := a.Expected(true)
	bodies := map[string]string{}
	for _, u := range want {
		_, body := get(t, c, u)
		bodies[u] = string(body)
	}
	addr := a.addr
	a.Close()
	c.Transport.(*http.Transport).CloseIdleConnections()

	b, err := Start(cfg, addr) // the same ports again
	if err != nil {
		t.Skipf("the ports were taken in between: %v", err)
	}
	defer b.Close()
	if got := b.Expected(true); !slices.Equal(got, want) {
		t.Fatalf("the same ports, other URLs:\n%s", diff(got, want))
	}
	for _, u := range want {
		if _, body := get(t, c, u); string(body) != bodies[u] {
			t.Errorf("%s differs between two runs", u)
		}
	}
	if !strings.Contains(bodies[a.URL()], a.URLs()[2]) {
		t.Error("the home page does not link host 2")
	}
}
