package links

import (
	"fmt"
	"strings"
	"testing"
)

// benchPage generates a page of about size bytes that looks like a real
// one: a head with stylesheets and a script, navigation repeated on every
// page, paragraphs of text with links (some repeated, some relative, some
// with entities or fragments), comments, and a mailto: or two.
func benchPage(size int) []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Benchmark page &mdash; loopkit</title>
<link rel="stylesheet" href="/static/site.css"><link rel="icon" href="/favicon.ico">
<script>window.dataLayer = []; function go(u) { location.href = "<a href='" + u + "'>"; }</script>
<style>a[href^="http"] { color: #06c } .nav > li { display: inline }</style>
</head><body><nav><ul>`)
	for i := range 20 {
		fmt.Fprintf(&b, `<li><a class="nav-link" href="/section/%d/">Section %d</a></li>`, i, i)
	}
	b.WriteString("</ul></nav>\n<main>\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `<article id="post-%d"><h2><a href="/posts/%d.html">Post number %d</a></h2>
<p>Lorem ipsum dolor sit amet, <em>consectetur</em> adipiscing elit, sed do eiusmod tempor
incididunt ut labore et dolore magna aliqua. See <a href="../related/%d?ref=list&amp;page=%d">related</a>,
the <a href="https://other.example.org/path/%d#comments">discussion</a> or <a href="/section/%d/">its section</a>.</p>
<!-- <a href="/draft/%d">draft</a> --><p>Ut enim ad minim veniam, quis nostrud exercitation
ullamco laboris nisi ut aliquip ex ea commodo consequat. <a href="mailto:author%d@example.com">Mail</a></p>
<img src="/img/%d.jpg" alt="picture &amp; caption"></article>
`, i, i, i, i, i%7, i, i%20, i, i%5, i)
	}
	b.WriteString("</main></body></html>\n")
	return []byte(b.String())
}

// BenchmarkExtract extracts the links of a generated 100 KiB page.
// An article on crawling a million pages with asyncio and aiohttp
// measured 20 ms per page with a regular expression and 2 ms with
// a parser; MB/s and ms/page here are for the whole job: tokenizing,
// resolving, normalizing and de-duplicating.
func BenchmarkExtract(b *testing.B) {
	body := benchPage(100 << 10)
	base := mustParse(b, "https://example.com/blog/2024/index.html")
	links, err := Extract(body, base)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Extract(body, base); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/page")
	b.ReportMetric(float64(len(links)), "links/page")
}

// BenchmarkScan puts scan beside the tokenizer it replaced
// (tokenizerScan, scan_test.go), on a 64 KiB page of the demo site (the
// size of a documentation page) and on the generated page above. Run the
// two in one process, alternating (-count), so that the machine's load
// weighs on both alike:
//
//	go test ./crawler/links -run '^$' -bench Scan -count 6
func BenchmarkScan(b *testing.B) {
	var docs []byte
	for _, body := range sitePagesB(b, 64<<10) {
		if len(body) > len(docs) {
			docs = body
		}
	}
	for _, page := range []struct {
		name string
		body []byte
	}{{"demo-64KiB", docs}, {"generated-100KiB", benchPage(100 << 10)}} {
		b.Run(page.name+"/tokenizer", func(b *testing.B) {
			b.SetBytes(int64(len(page.body)))
			b.ReportAllocs()
			for range b.N {
				tokenizerScan(page.body)
			}
		})
		b.Run(page.name+"/scan", func(b *testing.B) {
			b.SetBytes(int64(len(page.body)))
			b.ReportAllocs()
			for range b.N {
				if _, _, err := scan(page.body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
