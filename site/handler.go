package site

import (
	"html"
	"net/http"
	"strings"
)

// serveHTTP is host h's handler: instruments first, then the counted requests. Every
// host has the instruments: /stats and /reset speak for the whole site, and the fault
// endpoints keep their tallies per host, so that a test can make one host fail and
// watch the others go on.
func (s *Site) serveHTTP(h int, w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/stats": // not counted: reading the instruments must not move them
		s.serveStats(w, r)
		return
	case "/reset":
		s.serveReset(w, r)
		return
	}
	s.begin(h, r.URL.Path)
	defer s.end(h)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET, HEAD")
		return
	}
	if !s.serveInstrument(h, w, r) {
		s.servePage(h, w, r)
	}
}

// servePage serves host h's part of the crawlable site: the graph of graph.go, rendered.
func (s *Site) servePage(h int, w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if p == "/search" && h == 0 {
		s.serveSearch(h, w, r)
		return
	}
	if r.URL.RawQuery != "" { // every other page has one URL, without a query
		notFound(w)
		return
	}
	o := originsFor(r.Host, s.addr, h, s.hosts)
	// Book and list pages first: they are nearly all the requests of a crawl.
	if id, ok := s.bookAt(h, p); ok {
		respondRendered(w, ctHTML, func(b []byte) []byte { return s.cat.appendBook(b, id, &o) })
		return
	}
	if k, n, ok := s.listAt(h, p); ok {
		respondRendered(w, ctHTML, func(b []byte) []byte { return s.cat.appendList(b, k, n, &o) })
		return
	}
	if pg, ok := s.pageAt(h, p); ok {
		if !pg.perHost {
			respond(w, http.StatusOK, pg.contentType, pg.rendered)
			return
		}
		respondRendered(w, pg.contentType, func(b []byte) []byte { return pg.append(b, &o) })
		return
	}
	if f, ok := s.fileAt(h, p); ok {
		respond(w, http.StatusOK, f.contentType, f.body)
		return
	}
	if p == "/robots.txt" { // every host's: the same rules, for the host's own pages
		respond(w, http.StatusOK, ctText, s.robotsTxt)
		return
	}
	if rd, ok := s.redirectAt(h, p); ok {
		w.Header().Set("Location", o.expand(rd.location, rd.target, false))
		respond(w, rd.status, ctText, nil)
		return
	}
	notFound(w)
}

// serveSearch answers /search?q=<words>&page=<n>. A query with "&amp;" in it comes from
// a crawler that did not decode the character reference in an href: a trap.
func (s *Site) serveSearch(h int, w http.ResponseWriter, r *http.Request) {
	if !searchOK(r.URL.RawQuery) {
		if strings.Contains(r.URL.RawQuery, "&amp;") {
			s.countTrap(h)
		}
		notFound(w)
		return
	}
	q := r.URL.Query()
	respondRendered(w, ctHTML, func(b []byte) []byte {
		b = append(b, pageStart+"Search"+titleEnd+"<h1>Results for “"...)
		b = append(b, html.EscapeString(q.Get("q"))...)
		b = append(b, "”, page "...)
		b = append(b, q.Get("page")...) // a number: searchOK checked it
		return append(b, "</h1>\n<p>Nothing found. <a href=\"/\">Home</a></p>\n"+pageEnd...)
	})
}
