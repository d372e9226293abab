package crawler

import (
	"fmt"
	"net/url"
	"runtime"
	"testing"

	"loopkit/crawler/frontier"
	"loopkit/loop"
)

// BenchmarkQueueAMillionURLs measures what a queued URL costs: a million
// URLs on a thousand hosts go through the crawler's own enqueue (seen set,
// host, queue), and the live heap is measured before and after. The URLs
// are ~45 bytes, like a short real one; their strings are part of the cost.
func BenchmarkQueueAMillionURLs(b *testing.B) {
	const n, hosts = 1_000_000, 1000
	urls := make([]*url.URL, n)
	for i := range urls {
		urls[i] = &url.URL{Scheme: "http", Host: fmt.Sprintf("host%d.example", i%hosts), Path: fmt.Sprintf("/page/%d", i)}
	}
	l, err := loop.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		c, err := New(l, Config{Roots: []string{"http://host0.example/"}, NoRobots: true})
		if err != nil {
			b.Fatal(err)
		}
		before := liveHeap()
		b.StartTimer()
		for _, u := range urls {
			c.add(u, frontier.Item{URL: u.String(), Redirects: 10, Depth: 1})
		}
		b.StopTimer()
		after := liveHeap()
		if c.front.Queued() != n {
			b.Fatalf("%d queued, want %d", c.front.Queued(), n)
		}
		b.ReportMetric(float64(after-before)/n, "B/url")
		runtime.KeepAlive(c)
		b.StartTimer()
	}
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
