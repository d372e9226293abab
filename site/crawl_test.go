package site

import (
	"bytes"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// A reference crawler, written for these tests from the rules in Expected's doc comment
// with net/http and golang.org/x/net/html. It reads the HTML the site really serves, so
// comparing what it fetches with Expected checks the site's graph against its pages.

// fetchFunc performs one GET without following redirects.
type fetchFunc func(rawURL string) (status int, header http.Header, body []byte, err error)

// overNetwork fetches with a real client.
func overNetwork(c *http.Client) fetchFunc {
	return func(u string) (int, http.Header, []byte, error) {
		resp, err := c.Get(u)
		if err != nil {
			return 0, nil, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, body, err
	}
}

// inProcess calls the handler directly: fast enough to crawl large sites in a test.
func inProcess(h http.Handler) fetchFunc {
	return func(u string) (int, http.Header, []byte, error) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, u, nil))
		return rec.Code, rec.Header(), rec.Body.Bytes(), nil
	}
}

// referenceCrawl crawls breadth-first from root and returns each fetched URL's status.
func referenceCrawl(t *testing.T, fetch fetchFunc, root string, robots bool) map[string]int {
	t.Helper()
	fetched, _ := referenceCrawlFrom(t, fetch, []string{root}, robots)
	return fetched
}

// referenceCrawlFrom crawls breadth-first from every root, staying on their origins and
// obeying each origin's own robots.txt. It returns each fetched URL's status, and for
// each URL the origins ("http://host:port") of the pages and redirects that lead to it.
func referenceCrawlFrom(t *testing.T, fetch fetchFunc, roots []string, robots bool) (map[string]int, map[string]map[string]bool) {
	t.Helper()
	allowed := map[string]func(*url.URL) bool{} // by origin
	for _, root := range roots {
		rootURL, err := url.Parse(root)
		if err != nil {
			t.Fatal(err)
		}
		allowed[rootURL.Scheme+"://"+rootURL.Host] = func(*url.URL) bool { return true }
		if robots {
			status, _, body, err := fetch(root + "robots.txt")
			if err != nil || status != http.StatusOK {
				t.Fatalf("robots.txt: %d %v", status, err)
			}
			allowed[rootURL.Scheme+"://"+rootURL.Host] = parseRobots(string(body))
		}
	}
	fetched := map[string]int{}
	from := map[string]map[string]bool{}
	seen := map[string]bool{}
	var queue []string
	for _, root := range roots {
		seen[root] = true
		queue = append(queue, root)
	}
	for i := 0; i < len(queue); i++ {
		if i > 100_000 {
			t.Fatal("the crawl does not end")
		}
		u := queue[i]
		status, header, body, err := fetch(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		fetched[u] = status
		base, _ := url.Parse(u)
		here := base.Scheme + "://" + base.Host
		var hrefs []string
		switch {
		case status >= 300 && status < 400:
			hrefs = []string{header.Get("Location")}
		case status == http.StatusOK && isHTML(header.Get("Content-Type")):
			base, hrefs = extractLinks(t, base, header.Get("Content-Type"), body)
		}
		for _, href := range hrefs {
			next, ok := normalize(base, href)
			if !ok {
				continue // not a web link
			}
			allow := allowed[next.Scheme+"://"+next.Host]
			if allow == nil || !allow(next) {
				continue // another origin (a strict crawler stays on the roots'), or disallowed
			}
			s := next.String()
			if from[s] == nil {
				from[s] = map[string]bool{}
			}
			if s != u { // a link to the page itself ("#reviews") leads nowhere new
				from[s][here] = true
			}
			if !seen[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		}
	}
	return fetched, from
}

func isHTML(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType) // lower-cases the media type
	return err == nil && (media == "text/html" || media == "application/xhtml+xml")
}

// extractLinks decodes the page (BOM, header, meta, as browsers do) and returns its
// base URL and the href of every <a>. The tokenizer skips comments and script text.
func extractLinks(t *testing.T, docURL *url.URL, contentType string, body []byte) (*url.URL, []string) {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		t.Fatalf("%s: decoding: %v", docURL, err)
	}
	base := docURL
	baseSeen := false
	var hrefs []string
	z := html.NewTokenizer(r)
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatalf("%s: parsing: %v", docURL, z.Err())
			}
			return base, hrefs
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			for _, a := range tok.Attr {
				if a.Key != "href" {
					continue
				}
				switch tok.Data {
				case "a":
					hrefs = append(hrefs, a.Val)
				case "base":
					if b, ok := normalize(docURL, a.Val); ok && !baseSeen { // the first <base> counts
						base, baseSeen = b, true
					}
				}
			}
		}
	}
}

// normalize resolves href against base and normalizes it (RFC 3986 §6): lower-case
// scheme and host, default port dropped, dot segments removed, fragment dropped.
func normalize(base *url.URL, href string) (*url.URL, bool) {
	ref, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return nil, false
	}
	u := base.ResolveReference(ref) // also removes dot segments
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, false
	}
	u.Host = strings.ToLower(u.Host)
	if u.Port() == "80" && u.Scheme == "http" || u.Port() == "443" && u.Scheme == "https" {
		u.Host = u.Hostname()
	}
	u.Fragment, u.RawFragment = "", ""
	return u, true
}

// parseRobots reads the group for "*" (RFC 9309): the longest matching rule wins, Allow
// wins a tie.
func parseRobots(txt string) func(*url.URL) bool {
	type rule struct {
		allow bool
		path  string
	}
	var rules []rule
	inStar, lastWasAgent := false, false
	for _, line := range strings.Split(txt, "\n") {
		line, _, _ = strings.Cut(line, "#")
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		switch key {
		case "user-agent":
			if !lastWasAgent {
				inStar = false
			}
			inStar = inStar || value == "*"
			lastWasAgent = true
			continue
		case "allow", "disallow":
			if inStar && value != "" {
				rules = append(rules, rule{key == "allow", value})
			}
		}
		lastWasAgent = false
	}
	return func(u *url.URL) bool {
		path := u.EscapedPath()
		if u.RawQuery != "" {
			path += "?" + u.RawQuery
		}
		longest, allow := -1, true
		for _, r := range rules {
			if strings.HasPrefix(path, r.path) && (len(r.path) > longest || len(r.path) == longest && r.allow) {
				longest, allow = len(r.path), r.allow
			}
		}
		return allow
	}
}

// The site's own graph and a crawl of its real pages agree, with and without robots.txt,
// and a correct crawl never requests a trap.
func TestReferenceCrawlFetchesExactlyExpected(t *testing.T) {
	for _, robots := range []bool{false, true} {
		s := startSite(t, Config{Pages: 200, Seed: 1})
		c := newClient(t)
		fetched := referenceCrawl(t, overNetwork(c), s.URL(), robots)

		want := s.Expected(robots)
		got := slices.Sorted(maps.Keys(fetched))
		if !slices.Equal(got, want) {
			t.Errorf("robots=%v: the crawl and Expected differ:\n%s", robots, diff(got, want))
		}
		for u, status := range fetched {
			if status >= 500 {
				t.Errorf("robots=%v: GET %s: %d", robots, u, status)
			}
			if want := s.Status(u); status != want {
				t.Errorf("robots=%v: GET %s: %d, the graph says %d", robots, u, status, want)
			}
		}
		st := s.Stats()
		if st.TrapHits != 0 {
			t.Errorf("robots=%v: %d trap hits, want 0", robots, st.TrapHits)
		}
		wantRequests := int64(len(fetched))
		if robots {
			wantRequests++ // robots.txt
		}
		if st.Requests != wantRequests {
			t.Errorf("robots=%v: the server saw %d requests, the crawler made %d", robots, st.Requests, wantRequests)
		}
	}
}

// The same agreement holds for sites of other shapes (crawled in process, no network).
func TestReferenceCrawlOtherShapes(t *testing.T) {
	for _, cfg := range []Config{
		{Pages: 1},
		{Pages: 60, FanOut: 1, Depth: 1, Seed: 2},
		{Pages: 1200, FanOut: 7, Depth: 5, Seed: 3},
		{Pages: 120, Seed: 4, PageBytes: 64 << 10}, // real-size pages: the same graph
	} {
		s, err := newSite(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.addr = "127.0.0.1:8080"
		for _, robots := range []bool{false, true} {
			fetched := referenceCrawl(t, inProcess(s.Handler()), s.URL(), robots)
			if got, want := slices.Sorted(maps.Keys(fetched)), s.Expected(robots); !slices.Equal(got, want) {
				t.Errorf("%+v robots=%v: the crawl and Expected differ:\n%s", cfg, robots, diff(got, want))
			}
		}
	}
}

// diff lists what is only in got and only in want, sorted inputs.
func diff(got, want []string) string {
	var b strings.Builder
	for _, g := range got {
		if _, found := slices.BinarySearch(want, g); !found {
			b.WriteString("  fetched, not expected: " + g + "\n")
		}
	}
	for _, w := range want {
		if _, found := slices.BinarySearch(got, w); !found {
			b.WriteString("  expected, not fetched: " + w + "\n")
		}
	}
	return b.String()
}

// TestPaddedBookPages checks PageBytes from the other side: a book page is
// at least that big, and has a link every few hundred bytes.
func TestPaddedBookPages(t *testing.T) {
	const size = 50 << 10
	s, err := newSite(Config{Pages: 60, Seed: 5, PageBytes: size})
	if err != nil {
		t.Fatal(err)
	}
	s.addr = "127.0.0.1:8080"
	books := 0
	for _, u := range s.Expected(false) {
		if !strings.Contains(u, "/catalogue/") || strings.Contains(u, "/category/") {
			continue
		}
		status, _, body, _ := inProcess(s.Handler())(u)
		if status != http.StatusOK {
			continue
		}
		books++
		if len(body) < size || len(body) > size+2048 {
			t.Errorf("%s: %d bytes, want %d to %d", u, len(body), size, size+2048)
		}
		if links := bytes.Count(body, []byte("<a href=")); links < size/400 {
			t.Errorf("%s: %d links in %d bytes, want one per 400 bytes or more", u, links, len(body))
		}
	}
	if books < 20 {
		t.Fatalf("only %d book pages checked", books)
	}
}
