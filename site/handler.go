package site

import (
	"html"
	"net/http"
	"strings"
)

// serveHTTP is the site's handler: instruments first, then the counted requests.
func (s *Site) serveHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/stats": // not counted: reading the instruments must not move them
		s.serveStats(w, r)
		return
	case "/reset":
		s.serveReset(w, r)
		return
	}
	s.counters.begin(r.URL.Path)
	defer s.counters.end()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET, HEAD")
		return
	}
	if !s.serveInstrument(w, r) {
		s.servePage(w, r)
	}
}

// servePage serves the crawlable site: the graph of graph.go, rendered.
func (s *Site) servePage(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if p == "/search" {
		s.serveSearch(w, r)
		return
	}
	if r.URL.RawQuery != "" { // every other page has one URL, without a query
		notFound(w)
		return
	}
	// Book and list pages first: they are nearly all the requests of a crawl.
	if id, ok := s.cat.parseBook(p); ok {
		respondRendered(w, ctHTML, func(b []byte) []byte { return s.cat.appendBook(b, id) })
		return
	}
	if k, n, ok := s.cat.parseList(p); ok {
		respondRendered(w, ctHTML, func(b []byte) []byte { return s.cat.appendList(b, k, n) })
		return
	}
	if pg, ok := s.pages[p]; ok {
		if !pg.perHost {
			respond(w, http.StatusOK, pg.contentType, pg.rendered)
			return
		}
		host := s.host(r)
		respondRendered(w, pg.contentType, func(b []byte) []byte { return pg.append(b, host) })
		return
	}
	if f, ok := s.files[p]; ok {
		respond(w, http.StatusOK, f.contentType, f.body)
		return
	}
	if p == "/robots.txt" {
		respond(w, http.StatusOK, ctText, s.robotsTxt)
		return
	}
	if rd, ok := s.redirect(p); ok {
		w.Header().Set("Location", expandHost(rd.location, s.host(r)))
		respond(w, rd.status, ctText, nil)
		return
	}
	notFound(w)
}

// serveSearch answers /search?q=<words>&page=<n>. A query with "&amp;" in it comes from
// a crawler that did not decode the character reference in an href: a trap.
func (s *Site) serveSearch(w http.ResponseWriter, r *http.Request) {
	if !searchOK(r.URL.RawQuery) {
		if strings.Contains(r.URL.RawQuery, "&amp;") {
			s.counters.traps.Add(1)
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

// host is the host the client asked for, which absolute links and Locations repeat.
func (s *Site) host(r *http.Request) string {
	if r.Host != "" {
		return r.Host
	}
	return s.addr // an HTTP/1.0 request without a Host header
}
