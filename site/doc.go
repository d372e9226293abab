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
// be tested.
//
// One site may be split over several hosts ([Config].Hosts): servers on consecutive
// ports, as a crawl of the web meets many servers, with no network needed. Each page
// belongs to exactly one host, by its number: book id (and its redirects /old/<id>,
// /moved/<id>) to host (id-1) mod H, the list pages of category k to host k mod H, and
// the home page with every hand-written page to host 0. A link to a page on another host is an absolute URL naming that host's
// port (and the host name the client used); links within a host stay relative. Every
// other host has a front page of its own at "/", and the home page links each of them.
// Books are shuffled into categories, so most book pages are reached only from other
// hosts: a crawler that keeps to one host finds about half of that host's pages. The
// split depends on the Config alone, so the same Config on the same ports is the same
// site, URL for URL, which a crawl that stops and resumes relies on. (Given port 0,
// [Start] finds a run of free ports itself: listen.go says where, and why not where
// the OS would pick.) [Site.URLs] lists the hosts' roots, and [Site.Expected] the URLs
// of all of them.
//
// Every host serves /robots.txt (the same rules, for its own pages) and every
// instrument below. The fault endpoints are on every host, not only host 0, so that a
// test of politeness per host can slow down or fail one host and watch the others go
// on; their tallies are per host. /stats and /reset speak for the whole site: its
// totals, and each host's own figures. The layout, all on host 0 when there is one
// host:
//
//	/                                          home: categories, featured books, the odd corners
//	/catalogue/category/<genre>_<k>/page-<n>.html   FanOut books per page, Depth pages, "next" links
//	/catalogue/<slug>_<id>/index.html          a book: its category, 2–3 related books
//	/old/<id> 301, /moved/<id> 308             to a book (absolute path, relative path)
//	/chain/start 302 → /chain/middle 301 → a book;  /loop/a 302 ⇄ /loop/b 307
//	/go/private 302 → /private/members.html;  /out 302 → off site;  /retired 301 → 404
//	/robots.txt                                disallows /private/ but /private/open.html (every host)
//	/about.html, /extras/, /shelf/, /charset/  tricky links, each to a page of its own
//	/static/                                   CSS, PNG, text, JSON: fetched, never parsed
//	/trap/                                     never linked for real: counted in Stats.TrapHits
//	/delay /hang /flaky /limited /dribble /drop /reset-mid-body   faults (see faults.go; every host)
//	/stats /reset                              the counters as JSON; start them anew (every host)
package site
