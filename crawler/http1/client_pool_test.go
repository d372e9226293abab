package http1_test

import (
	"net/http"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/internal/e2e"
	"loopkit/loop"
)

// openMany sends n requests at once, so the pool must open n connections;
// they all end idle in the pool.
func openMany(t testing.TB, c *http1.Client, url string, n int) []*future.Future[*http1.Reply] {
	fs := make([]*future.Future[*http1.Reply], n)
	for i := range fs {
		fs[i] = c.Do(http1.Request{URL: url})
	}
	return fs
}

func TestTenThousandPooledConnections(t *testing.T) {
	e2e.Only(t, "opens 10 000 connections to a server process: SYNs its full accept queue drops are sent again up to 15 s later")
	const n = 10000
	url := serverProcess(t)
	// Ten thousand SYNs at once overflow the server's accept queue, and the
	// kernel drops what does not fit: those connect when their SYN is sent
	// again, 1, 3, 7, 15 s later. The connect timeout only bounds a hang.
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: n, ConnectTimeout: time.Minute})
	fs := openMany(t, c, url, n)
	ok := 0
	for _, f := range fs {
		r, err := await(t, l, f)
		if err != nil {
			t.Fatalf("request failed: %v", err)
		}
		if r.StatusCode == 200 {
			ok++
		}
	}
	if ok != n || c.OpenConns() != n {
		t.Fatalf("%d requests ok, %d connections pooled; want %d and %d", ok, c.OpenConns(), n, n)
	}
	// The server agrees: n connections open at once (plus the one asking).
	r, err := get(t, l, c, url+"/conns")
	if err != nil {
		t.Fatal(err)
	}
	if open, _ := strconv.Atoi(string(r.Body)); open != n {
		t.Fatalf("server counts %d open connections, want %d", open, n)
	}
}

// BenchmarkIdleConnectionBytes reports the client's heap per pooled
// connection (the kernel's socket buffers come on top, for any client).
func BenchmarkIdleConnectionBytes(b *testing.B) {
	const n = 5000
	url := serverProcess(b)
	for range b.N {
		l, c := onLoop(b, http1.Options{MaxConnsPerHost: n})
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for _, f := range openMany(b, c, url, n) {
			if _, err := await(b, l, f); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "heap-bytes/conn")
		c.Close()
	}
}

// Closing the client and its loop closes every socket it opened: the
// process's descriptors go back to where they were.
func TestCloseLeavesNoDescriptors(t *testing.T) {
	fdCount := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd here")
		}
		return len(entries)
	}
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	srv.Client() // let httptest open whatever it opens first
	before := fdCount()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := http1.NewClient(l, http1.Options{MaxConnsPerHost: 50})
	for _, f := range openMany(t, c, srv.URL, 50) {
		if _, err := await(t, l, f); err != nil {
			t.Fatal(err)
		}
	}
	if c.OpenConns() != 50 {
		t.Fatalf("%d connections pooled, want 50", c.OpenConns())
	}
	c.Close()
	l.Close()
	// The server closes its ends when it reads EOF; give it a moment.
	deadline := time.Now().Add(5 * time.Second)
	for fdCount() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := fdCount(); after > before {
		t.Fatalf("descriptors: %d before, %d after closing", before, after)
	}
}
