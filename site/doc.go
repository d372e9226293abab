// Package site is the synthetic website that loopkit's crawler demo, its tests and its
// benchmarks crawl.
//
// It sits beside the library, not in it, and not under bench/ either: it is the demo of
// `go run ./cmd/crawl`, the site of every tutorial stage and of the crawler's tests, and
// only one of its users is a benchmark. It is the server side, allowed to use net/http;
// it plays the website that the crawler and the benchmarks hit. (The crawler itself never imports net/http: this
// package may, because it stands in for somebody else's web server.)
//
// The site is a small book shop generated from a [Config]: a home page, paginated
// category lists, one page per book, plus a fixed set of pages that trip crawlers up —
// redirects of every kind (and a loop), 404s, a robots.txt section, odd link syntax,
// three character encodings, non-HTML files and links hidden in comments and scripts.
// Everything is derived from the seed, so two sites with the same Config are the same
// site, and [Site.Expected] can say exactly which URLs a correct crawler fetches.
//
// The site is also an instrument: it counts requests and connections on the server
// side (measuring at the server is what tells whether a client really is polite), and
// it has endpoints that misbehave on purpose so the crawler's timeouts and retries can
// be tested. The layout:
//
//	/                                          home: categories, featured books, the odd corners
//	/catalogue/category/<genre>_<k>/page-<n>.html   FanOut books per page, Depth pages, "next" links
//	/catalogue/<slug>_<id>/index.html          a book: its category, 2–3 related books
//	/old/<id> 301, /moved/<id> 308             to a book (absolute path, relative path)
//	/chain/start 302 → /chain/middle 301 → a book;  /loop/a 302 ⇄ /loop/b 307
//	/go/private 302 → /private/members.html;  /out 302 → off site;  /retired 301 → 404
//	/robots.txt                                disallows /private/ but /private/open.html
//	/about.html, /extras/, /shelf/, /charset/  tricky links, each to a page of its own
//	/static/                                   CSS, PNG, text, JSON: fetched, never parsed
//	/trap/                                     never linked for real: counted in Stats.TrapHits
//	/delay /hang /flaky /limited /dribble /drop /reset-mid-body   faults (see faults.go)
//	/stats /reset                              the counters as JSON; start them anew
package site
