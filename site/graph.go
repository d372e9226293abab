package site

import (
	"net/http"
	"net/url"
	"strings"
)

// The site's link graph, as the site itself knows it: for any on-site URL, the status
// the server answers with and the targets a crawler finds there. Expected walks it; no
// HTML is parsed. The handlers serve the same graph (pages.go and redirects.go share
// their tables; the book and list pages have twins in render.go, checked by a test).
// On a site of several hosts, a target names its host (see on, in hosts.go).

// node returns the status and targets at target, an on-site target with an optional
// query, decoded as the server sees it (piece.target's spelling, host included: see on).
func (s *Site) node(target string) (status int, targets []string) {
	h, target := splitTarget(target)
	p, query, hasQuery := strings.Cut(target, "?")
	if hasQuery {
		if h == 0 && p == "/search" && searchOK(query) {
			return http.StatusOK, []string{"/"}
		}
		return http.StatusNotFound, nil // every other page has exactly one URL, without a query
	}
	if id, ok := s.bookAt(h, p); ok {
		return http.StatusOK, s.cat.bookTargets(id)
	}
	if k, n, ok := s.listAt(h, p); ok {
		return http.StatusOK, s.cat.listTargets(k, n)
	}
	if pg, ok := s.pageAt(h, p); ok {
		return http.StatusOK, pg.targets()
	}
	if _, ok := s.fileAt(h, p); ok {
		return http.StatusOK, nil // fetched, never parsed
	}
	if rd, ok := s.redirectAt(h, p); ok {
		return rd.status, []string{rd.target}
	}
	return http.StatusNotFound, nil
}

// The lookups below say what host h serves at path p. node and the handler share
// them, so that the graph and the server agree on where every page lives (hosts.go).

func (s *Site) bookAt(h int, p string) (id int, ok bool) {
	id, ok = s.cat.parseBook(p)
	return id, ok && s.cat.bookHost(id) == h
}

func (s *Site) listAt(h int, p string) (k, n int, ok bool) {
	k, n, ok = s.cat.parseList(p)
	return k, n, ok && s.cat.listHost(k) == h
}

// pageAt finds a hand-written page: host 0 has them all but the other hosts' front pages.
func (s *Site) pageAt(h int, p string) (*page, bool) {
	if h == 0 {
		pg, ok := s.pages[p]
		return pg, ok
	}
	if p == "/" && h < len(s.fronts) {
		return s.fronts[h], true
	}
	return nil, false
}

func (s *Site) fileAt(h int, p string) (file, bool) {
	if h != 0 {
		return file{}, false
	}
	f, ok := s.files[p]
	return f, ok
}

// redirectAt finds a fixed redirect (host 0) or a book's redirect (the book's host).
func (s *Site) redirectAt(h int, p string) (redirect, bool) {
	if rd, ok := s.redirects[p]; ok && h == 0 {
		return rd, true
	}
	rd, id, ok := s.cat.bookRedirect(p)
	return rd, ok && s.cat.bookHost(id) == h
}

// bookTargets are the links of appendBook, in order.
func (c *catalogue) bookTargets(id int) []string {
	self := c.bookHost(id)
	k := int(c.catOf[id-1])
	out := []string{on(self, "/"), on(c.listHost(k), c.listPath(k, 1)), on(self, c.bookPath(id))} // home, category, #reviews
	ids, n := c.related(id)
	for _, r := range ids[:n] {
		out = append(out, on(c.bookHost(r), c.bookPath(r)))
	}
	if id == 1 {
		out = append(out, on(self, "/catalogue/out-of-print_0/index.html"))
	}
	return out
}

// listTargets are the links of appendList, in order.
func (c *catalogue) listTargets(k, n int) []string {
	self := c.listHost(k)
	out := []string{on(self, "/")}
	from := (n - 1) * c.fanOut
	for _, id := range c.cats[k].books[from:min(from+c.fanOut, len(c.cats[k].books))] {
		out = append(out, on(c.bookHost(int(id)), c.bookPath(int(id))))
	}
	if n > 1 {
		out = append(out, on(self, c.listPath(k, 1)), on(self, c.listPath(k, n-1)))
	}
	if n < c.listPages(k) {
		out = append(out, on(self, c.listPath(k, n+1)))
	}
	return out
}

// searchOK accepts exactly the parameters q and page, as in /search?q=poetry&page=2.
func searchOK(rawQuery string) bool {
	q, err := url.ParseQuery(rawQuery)
	if err != nil || len(q) != 2 || len(q["q"]) != 1 || len(q["page"]) != 1 || q.Get("q") == "" {
		return false
	}
	n, ok := parseNumber(q.Get("page"))
	return ok && n <= 1000
}
