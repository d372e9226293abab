package wirelog

import (
	"fmt"
	"net/http"
	"strings"
)

// Page writes an HTML page linking to each of links.
func Page(w http.ResponseWriter, links ...string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b strings.Builder
	b.WriteString("<html><body>\n")
	for _, l := range links {
		fmt.Fprintf(&b, "<a href=\"%s\">%s</a>\n", l, l)
	}
	b.WriteString("</body></html>\n")
	fmt.Fprint(w, b.String())
}

// Fan is a site of n leaf pages, /p0 … /p(n-1), all linked from /:
// a crawl of it makes n+1 page requests (and one for robots.txt, a 404).
func Fan(n int, leaf http.HandlerFunc) http.Handler {
	mux := http.NewServeMux()
	links := make([]string, n)
	for i := range n {
		links[i] = fmt.Sprintf("/p%d", i)
		mux.HandleFunc(links[i], func(w http.ResponseWriter, r *http.Request) {
			if leaf != nil {
				leaf(w, r)
				return
			}
			Page(w)
		})
	}
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) { Page(w, links...) })
	return mux
}
