package site

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Two sites started with the same Config are the same site: same URLs, same bytes.
func TestSameSeedSameSite(t *testing.T) {
	a := startSite(t, Config{Pages: 200, Seed: 42})
	b := startSite(t, Config{Pages: 200, Seed: 42})
	pathsA, pathsB := relative(a, a.Expected(false)), relative(b, b.Expected(false))
	if !slices.Equal(pathsA, pathsB) {
		t.Fatalf("same seed, different sites:\n%s", diff(pathsA, pathsB))
	}
	c := newClient(t)
	for _, p := range pathsA {
		if p == "about.html" {
			continue // it spells out the host, whose port differs
		}
		_, bodyA := get(t, c, a.URL()+p)
		_, bodyB := get(t, c, b.URL()+p)
		if string(bodyA) != string(bodyB) {
			t.Errorf("%s differs between two sites with the same seed", p)
		}
	}

	other, err := newSite(Config{Pages: 200, Seed: 43})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(walked(other), walked(a)) {
		t.Error("seeds 42 and 43 give the same site")
	}
}

// walked is every target of s's walk, robots.txt ignored, in its order.
func walked(s *Site) []string {
	var out []string
	s.walk(false, func(t string) { out = append(out, t) })
	return out
}

// relative strips the root from each URL.
func relative(s *Site, urls []string) []string {
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = strings.TrimPrefix(u, s.URL())
	}
	return out
}

// Config.Pages sets the number of HTML pages, FanOut the books per list page and Depth
// the list pages per category.
func TestSizeFollowsConfig(t *testing.T) {
	for _, cfg := range []Config{{Pages: 200}, {Pages: 10_000}, {Pages: 10_000, FanOut: 50, Depth: 10}} {
		s, err := newSite(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ = cfg.withDefaults()
		html := 0
		for _, p := range walked(s) {
			if isHTMLPage(s, p) {
				html++
			}
		}
		if lo, hi := cfg.Pages*95/100, cfg.Pages*105/100; html < lo || html > hi {
			t.Errorf("%+v: %d HTML pages, want %d to %d", cfg, html, lo, hi)
		}
		for k, cat := range s.cat.cats[:len(s.cat.cats)-1] { // the last one may be short
			if len(cat.books) != cfg.FanOut*cfg.Depth || s.cat.listPages(k) != cfg.Depth {
				t.Errorf("%+v: category %s has %d books on %d pages, want %d on %d",
					cfg, cat.slug, len(cat.books), s.cat.listPages(k), cfg.FanOut*cfg.Depth, cfg.Depth)
			}
		}
	}
}

// isHTMLPage tells the 200 HTML pages of the walk from redirects, 404s and files.
func isHTMLPage(s *Site, target string) bool {
	status, _ := s.node(target)
	_, isFile := s.files[target]
	return status == http.StatusOK && !isFile
}

// fixedPages, which Config.Pages relies on, counts the hand-written HTML pages.
func TestFixedPagesCount(t *testing.T) {
	s, err := newSite(Config{})
	if err != nil {
		t.Fatal(err)
	}
	fixed := len(s.pages) - 1 + 1 // the home page is not counted; /search is rendered, not in the table
	if fixed != fixedPages {
		t.Errorf("%d hand-written pages, fixedPages says %d", fixed, fixedPages)
	}
}

// Expected holds what a strict crawler must fetch, and nothing it must not.
func TestExpectedContents(t *testing.T) {
	s := startSite(t, Config{Pages: 200, Seed: 5})
	for _, robots := range []bool{false, true} {
		got := map[string]bool{}
		for _, u := range relative(s, s.Expected(robots)) {
			got[u] = true
		}
		must := []string{
			"", "about.html", "old/" + strconv.Itoa(s.cat.featured(0)), "moved/" + strconv.Itoa(s.cat.featured(2)),
			strings.TrimPrefix(s.cat.bookPath(s.cat.featured(0)), "/"),
			"chain/start", "chain/middle", strings.TrimPrefix(s.cat.bookPath(s.cat.featured(3)), "/"),
			"loop/a", "loop/b", "go/private", "out", "retired", "gone.html",
			"catalogue/out-of-print_0/index.html", "private/open.html",
			"static/style.css", "static/cover.png", "static/notes.txt", "static/catalogue.json", "static/plain.html",
			"charset/caf%C3%A9.html", "charset/euro-%E2%82%AC.html", "charset/na%C3%AFve.html",
			"search?q=poetry&page=2", "shelf/based.html", "extras/upper.html", "extras/spaced.html",
		}
		mustNot := []string{
			"robots.txt", "trap/comment.html", "trap/script.html", "extras/based.html",
			"search?q=poetry&amp;page=2", "index.html", "extras/fragment.html#part-2",
		}
		private := []string{"private/index.html", "private/members.html", "private/ledger.html"}
		if robots {
			mustNot = append(mustNot, private...)
		} else {
			must = append(must, private...)
		}
		for _, p := range must {
			if !got[p] {
				t.Errorf("robots=%v: Expected lacks /%s", robots, p)
			}
		}
		for _, p := range mustNot {
			if got[p] {
				t.Errorf("robots=%v: Expected holds /%s", robots, p)
			}
		}
		for u := range got {
			if strings.Contains(u, "example.invalid") {
				t.Errorf("robots=%v: Expected leaves the site: %s", robots, u)
			}
		}
	}
	if n, m := len(s.Expected(false)), len(s.Expected(true)); n-m != 3 {
		t.Errorf("robots.txt keeps a crawler out of %d URLs, want 3", n-m)
	}
}

// Every URL in Expected answers with the status the graph gives it; redirects say
// where, and pages say what they are.
func TestExpectedURLsAnswerTheirStatus(t *testing.T) {
	s := startSite(t, Config{Pages: 200, Seed: 6})
	c := newClient(t)
	counts := map[int]int{}
	for _, u := range s.Expected(false) {
		resp, _ := get(t, c, u)
		want := s.Status(u)
		counts[want]++
		if resp.StatusCode != want {
			t.Errorf("GET %s: %s, want %d", u, resp.Status, want)
		}
		switch {
		case want >= 300 && want < 400 && resp.Header.Get("Location") == "":
			t.Errorf("GET %s: a redirect without a Location", u)
		case want == http.StatusOK && resp.Header.Get("Content-Type") == "":
			t.Errorf("GET %s: no Content-Type", u)
		}
	}
	// 301 ×4: /old/ twice, /chain/middle, /retired; 302 ×4: /chain/start, /loop/a,
	// /go/private, /out; 307: /loop/b; 308: /moved/; 404 ×2: /gone.html, out-of-print_0.
	for status, n := range map[int]int{301: 4, 302: 4, 307: 1, 308: 1, 404: 2} {
		if counts[status] != n {
			t.Errorf("%d URLs answer %d, want %d", counts[status], status, n)
		}
	}
}

// Status knows the graph, and nothing else.
func TestStatus(t *testing.T) {
	s := startSite(t, Config{Pages: 50})
	for u, want := range map[string]int{
		s.URL():                                     200,
		s.URL() + "old/1":                           301,
		s.URL() + "nowhere.html":                    404,
		s.URL() + "about.html?x=1":                  404,
		s.URL() + "search?q=a&page=1":               200,
		s.URL() + "delay?ms=1":                      0,
		s.URL() + "robots.txt":                      0,
		"http://example.invalid/":                   0,
		strings.Replace(s.URL(), "http", "HTTP", 1): 200,
	} {
		if got := s.Status(u); got != want {
			t.Errorf("Status(%s) = %d, want %d", u, got, want)
		}
	}
}

// A page has exactly one URL: other spellings of a number or a slug are 404s.
func TestOneURLPerPage(t *testing.T) {
	s := startSite(t, Config{Pages: 50})
	c := newClient(t)
	slug := s.cat.slug(1)
	for _, p := range []string{
		"catalogue/" + slug + "_01/index.html",
		"catalogue/" + slug + "_+1/index.html",
		"catalogue/wrong-slug_1/index.html",
		"catalogue/" + slug + "_1/",
		"catalogue/category/" + s.cat.cats[0].slug + "/page-0.html",
		"catalogue/category/" + s.cat.cats[0].slug + "/page-99.html",
		"index.html",
		"about.html?again",
	} {
		if resp, _ := get(t, c, s.URL()+p); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET /%s: %s, want 404", p, resp.Status)
		}
	}
}
