package conns

import (
	"sync"
	"testing"

	"loopkit/internal/canned"
)

// What one request costs on a goroutine with loopkit's HTTP code: the
// goroutine-per-connection variant's conn.get, one request after another
// on one keep-alive connection, against a server that allocates nothing
// (internal/canned). The loop's own numbers are crawler/http1's
// BenchmarkRequest:
//
//	go test ./bench/conns ./crawler/http1 -run '^$' -bench Request -benchmem
func BenchmarkRequestGoroutine(b *testing.B) {
	b.Run("one-conn", func(b *testing.B) {
		s := canned.Start(b)
		c := newConn(siteHost(b, s))
		defer c.close()
		url := s.URL()
		getOK(b, c, url) // dial before the clock starts
		b.ReportAllocs()
		b.ResetTimer()
		defer canned.MeasureCPU(b)()
		for range b.N {
			getOK(b, c, url)
		}
	})
	b.Run("64-conns", func(b *testing.B) {
		s := canned.Start(b)
		url := s.URL()
		var wg sync.WaitGroup
		work := make(chan struct{}, 64)
		conns := make([]*conn, 64)
		for i := range conns {
			conns[i] = newConn(siteHost(b, s))
			defer conns[i].close()
			getOK(b, conns[i], url)
		}
		b.ReportAllocs()
		b.ResetTimer()
		defer canned.MeasureCPU(b)()
		for _, c := range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range work {
					getOK(b, c, url)
				}
			}()
		}
		for range b.N {
			work <- struct{}{}
		}
		close(work)
		wg.Wait()
	})
}

func getOK(tb testing.TB, c *conn, url string) {
	resp, err := c.get(url)
	if err != nil || resp.Status != 200 {
		tb.Errorf("got %d, %v", resp.Status, err)
	}
}

func siteHost(tb testing.TB, s *canned.Server) host {
	h, err := hostOf(s.URL())
	if err != nil {
		tb.Fatal(err)
	}
	return h
}
