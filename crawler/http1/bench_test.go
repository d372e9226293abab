package http1_test

import (
	"strconv"
	"strings"
	"testing"

	"loopkit/crawler/http1"
)

// typicalHead is what a web server sends before a small page: eight
// fields, about 300 bytes.
const typicalHead = "HTTP/1.1 200 OK\r\n" +
	"Date: Mon, 02 Jun 2025 10:00:00 GMT\r\n" +
	"Server: nginx/1.25.3\r\n" +
	"Content-Type: text/html; charset=utf-8\r\n" +
	"Last-Modified: Sun, 01 Jun 2025 08:00:00 GMT\r\n" +
	"ETag: \"665ad1c0-800\"\r\n" +
	"Cache-Control: max-age=3600\r\n" +
	"Connection: keep-alive\r\n"

var benchPage = strings.Repeat("<p>0123456789 abcdefghijklmnopqrstuvwxyz</p>\n", 46)[:2048]

// benchmarkParse parses the same response over and over on one parser,
// as a keep-alive connection does, and reports throughput in MB/s.
func benchmarkParse(b *testing.B, response string) {
	in := []byte(response)
	p := http1.NewParser("GET", http1.Limits{})
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for range b.N {
		p.Reset("GET")
		if n, err := p.Feed(in); err != nil || n != len(in) || !p.Done() {
			b.Fatalf("used %d of %d, done %v, err %v", n, len(in), p.Done(), err)
		}
	}
}

// A 200 with eight fields and a 2 KiB body framed by Content-Length.
func BenchmarkParseSmall(b *testing.B) {
	benchmarkParse(b, typicalHead+"Content-Length: "+strconv.Itoa(len(benchPage))+"\r\n\r\n"+benchPage)
}

// The same page sent as chunked, in chunks of 512 bytes.
func BenchmarkParseChunked(b *testing.B) {
	benchmarkParse(b, typicalHead+"Transfer-Encoding: chunked\r\n\r\n"+chunked(benchPage[:512], benchPage[512:1024], benchPage[1024:1536], benchPage[1536:]))
}
