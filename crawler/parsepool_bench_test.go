package crawler

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"loopkit/loop"
	"loopkit/task"
)

// BenchmarkParseHandOff is what a page's trip to a parse worker and back
// costs, without the parsing: a channel send from the loop, a worker
// woken, CallSoonThreadsafe back, the loop woken, the task resumed.
// Compare with BenchmarkParsePage to see below what size a page is
// cheaper to parse on the loop (Config.ParseInlineBelow).
func BenchmarkParseHandOff(b *testing.B) {
	l, err := loop.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	nothing := func(string, []byte, *url.URL) parsed { return parsed{} }
	pool := newParsePool(1, 1, 0, 1<<30)
	pool.parseFn = nothing
	pool.start(l)
	owner := &Crawler{loop: l}
	body := make([]byte, 1)
	b.ReportAllocs()
	_, err = task.Run(l, func(y task.Yield) (int, error) {
		b.ResetTimer()
		for range b.N {
			if _, err := pool.parse(y, owner, "text/html", body, nil); err != nil {
				return 0, err
			}
		}
		pool.close(y)
		return 0, nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkParsePage is parsePage on pages like the demo site's padded
// ones (site PageBytes): a link every ~250 bytes.
func BenchmarkParsePage(b *testing.B) {
	page, _ := url.Parse("http://a.test/catalogue/book_1/index.html")
	for _, size := range []int{1 << 10, 4 << 10, 16 << 10, 64 << 10} {
		body := []byte(fakePage(size))
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for range b.N {
				if p := parsePage("text/html; charset=utf-8", body, page); p.err != nil {
					b.Fatal(p.err)
				}
			}
		})
	}
}

// fakePage is an HTML page of about size bytes with a link every ~250.
func fakePage(size int) string {
	var s strings.Builder
	s.WriteString("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>t</title></head><body>\n")
	for i := 0; s.Len() < size; i++ {
		fmt.Fprintf(&s, "<p>river garden letter harbor lantern orchard kingdom mirror library compass cathedral island meadow voyage feather. See <a href=\"../page_%d/index.html\">page %d</a>.</p>\n", i%50, i)
	}
	s.WriteString("</body></html>\n")
	return s.String()
}
