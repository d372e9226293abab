package http1_test

import (
	"crypto/tls"
	"runtime"
	"testing"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/internal/testca"
	"loopkit/loop"
)

// The benchmarks below run against a net/http server in a process of its
// own (see TestMain), so that its CPU is not counted against the client's.
// On a machine with two cores, that server takes one, and the client's
// loop and its handshake goroutines the other.
//
//	go test -run '^$' -bench 'TLS|KeepAlive' ./crawler/http1

// runRequests sends n requests for url with conc of them in flight at
// once, and fails b on any error.
func runRequests(b *testing.B, l *loop.Loop, c *http1.Client, url string, n, conc int) {
	done := future.New[struct{}](l)
	started, finished := 0, 0
	var next func()
	next = func() {
		if started == n {
			return
		}
		started++
		f := c.Do(http1.Request{URL: url})
		f.OnDone(func() {
			if err := f.Err(); err != nil {
				b.Error(err)
			}
			if finished++; finished == n {
				done.SetResult(struct{}{})
			} else {
				next()
			}
		})
	}
	for range min(conc, n) {
		next()
	}
	if n > 0 {
		await(b, l, done)
	}
}

// BenchmarkTLSHandshakes: each request on a new connection (the server
// closes it after answering), eight in flight, so the handshakes run side
// by side on their goroutines off the loop. "full" is a full handshake
// every time; "resumed" lets the client resume its TLS session, which
// skips checking the server's certificate chain.
func BenchmarkTLSHandshakes(b *testing.B) {
	ca := testca.New(b)
	url := tlsServerProcess(b, ca) + "/close"
	for _, mode := range []string{"full", "resumed"} {
		b.Run(mode, func(b *testing.B) {
			cfg := &tls.Config{RootCAs: ca.Pool(), SessionTicketsDisabled: mode == "full"}
			l, c := onLoop(b, http1.Options{TLS: cfg, MaxConnsPerHost: 8})
			runRequests(b, l, c, url, 8, 8) // warm up: the session cache, the goroutines
			b.ResetTimer()
			runRequests(b, l, c, url, b.N, 8)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "handshakes/s")
		})
	}
}

// BenchmarkKeepAlive: requests over 16 keep-alive connections, plain and
// over TLS: what TLS costs once the handshakes are done.
func BenchmarkKeepAlive(b *testing.B) {
	ca := testca.New(b)
	urls := map[string]string{"plain": serverProcess(b), "tls": tlsServerProcess(b, ca)}
	for _, name := range []string{"plain", "tls"} {
		b.Run(name, func(b *testing.B) {
			l, c := onLoop(b, http1.Options{TLS: &tls.Config{RootCAs: ca.Pool()}, MaxConnsPerHost: 16})
			runRequests(b, l, c, urls[name], 64, 16) // opens the 16 connections
			b.ResetTimer()
			runRequests(b, l, c, urls[name], b.N, 16)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		})
	}
}

// BenchmarkIdleTLSConnectionBytes is BenchmarkIdleConnectionBytes over
// TLS: the client's heap per pooled https connection, crypto/tls's state
// and buffers included, after a small page and after a 64 KiB one (whose
// full-size records make crypto/tls's input buffer grow, for good).
func BenchmarkIdleTLSConnectionBytes(b *testing.B) {
	const n = 1000
	ca := testca.New(b)
	url := tlsServerProcess(b, ca)
	for _, page := range []string{"/", "/64k"} {
		b.Run(page[1:]+"page", func(b *testing.B) {
			for range b.N {
				l, c := onLoop(b, http1.Options{TLS: &tls.Config{RootCAs: ca.Pool()}, MaxConnsPerHost: n})
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				runRequests(b, l, c, url+page, n, n)
				runtime.GC()
				runtime.ReadMemStats(&after)
				if c.OpenConns() != n {
					b.Fatalf("%d connections open, want %d", c.OpenConns(), n)
				}
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "heap-bytes/conn")
				c.Close()
			}
		})
	}
}
