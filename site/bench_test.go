package site

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// discard is a ResponseWriter that keeps nothing, so that a benchmark measures the
// handler rather than a recorder's buffers.
type discard struct {
	header http.Header
	n      int
}

func (d *discard) Header() http.Header         { return d.header }
func (d *discard) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }
func (d *discard) WriteHeader(int)             {}

// benchmarkPages serves the given pages in turn through the whole handler, counters
// included, without a network: the site's own cost per request.
func benchmarkPages(b *testing.B, paths func(s *Site) []string) {
	s, err := newSite(Config{Pages: 10_000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var reqs []*http.Request
	for _, p := range paths(s) {
		reqs = append(reqs, httptest.NewRequest(http.MethodGet, p, nil))
	}
	h := s.Handler()
	w := &discard{header: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		clear(w.header)
		h.ServeHTTP(w, reqs[i%len(reqs)])
	}
	b.SetBytes(int64(w.n / b.N))
}

func BenchmarkServeItemPage(b *testing.B) {
	benchmarkPages(b, func(s *Site) []string {
		var out []string
		for id := 1; id <= 1000; id++ {
			out = append(out, s.cat.bookPath(id))
		}
		return out
	})
}

func BenchmarkServeListPage(b *testing.B) {
	benchmarkPages(b, func(s *Site) []string {
		var out []string
		for k := range s.cat.cats {
			out = append(out, s.cat.listPath(k, 1))
		}
		return out
	})
}

func BenchmarkServeDelayZero(b *testing.B) {
	benchmarkPages(b, func(*Site) []string { return []string{"/delay?ms=0"} })
}
