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

// node returns the status and targets at target, an on-site path with an optional
// query, decoded as the server sees it (piece.target's spelling).
func (s *Site) node(target string) (status int, targets []string) {
	p, query, hasQuery := strings.Cut(target, "?")
	if hasQuery {
		if p == "/search" && searchOK(query) {
			return http.StatusOK, []string{"/"}
		}
		return http.StatusNotFound, nil // every other page has exactly one URL, without a query
	}
	if id, ok := s.cat.parseBook(p); ok {
		return http.StatusOK, s.cat.bookTargets(id)
	}
	if k, n, ok := s.cat.parseList(p); ok {
		return http.StatusOK, s.cat.listTargets(k, n)
	}
	if pg, ok := s.pages[p]; ok {
		return http.StatusOK, pg.targets()
	}
	if _, ok := s.files[p]; ok {
		return http.StatusOK, nil // fetched, never parsed
	}
	if rd, ok := s.redirect(p); ok {
		return rd.status, []string{rd.target}
	}
	return http.StatusNotFound, nil
}

// redirect looks a path up among the fixed redirects and the book redirects.
func (s *Site) redirect(p string) (redirect, bool) {
	if rd, ok := s.redirects[p]; ok {
		return rd, true
	}
	return s.cat.bookRedirect(p)
}

// bookTargets are the links of writeBook, in order.
func (c *catalogue) bookTargets(id int) []string {
	k := int(c.catOf[id-1])
	out := []string{"/", c.listPath(k, 1), c.bookPath(id)} // home, category, #reviews
	ids, n := c.related(id)
	for _, r := range ids[:n] {
		out = append(out, c.bookPath(r))
	}
	if id == 1 {
		out = append(out, "/catalogue/out-of-print_0/index.html")
	}
	return out
}

// listTargets are the links of writeList, in order.
func (c *catalogue) listTargets(k, n int) []string {
	out := []string{"/"}
	from := (n - 1) * c.fanOut
	for _, id := range c.cats[k].books[from:min(from+c.fanOut, len(c.cats[k].books))] {
		out = append(out, c.bookPath(int(id)))
	}
	if n > 1 {
		out = append(out, c.listPath(k, 1), c.listPath(k, n-1))
	}
	if n < c.listPages(k) {
		out = append(out, c.listPath(k, n+1))
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
