package crawlrules_test

import (
	"io"
	"net/http"
	"slices"
	"testing"

	"loopkit/bench/crawlrules"
	"loopkit/site"
)

// A one-at-a-time crawl with net/http: the crawl's rules alone decide what
// is fetched, and must fetch what the site's own graph says.
func TestACrawlFetchesTheSitesGraph(t *testing.T) {
	s, err := site.Start(site.Config{Pages: 200}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	f, err := crawlrules.New(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	for it, ok := f.Next(); ok; it, ok = f.Next() {
		resp, err := client.Get(it.URL)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !f.Visit(it, crawlrules.Response{
			Status:      resp.StatusCode,
			ContentType: resp.Header.Get("Content-Type"),
			Location:    resp.Header.Get("Location"),
			Body:        body,
		}) {
			t.Errorf("%s: not visited", it.URL)
		}
	}
	got := slices.Clone(f.Fetched())
	slices.Sort(got)
	if want := s.Expected(false); !slices.Equal(got, want) {
		t.Fatalf("fetched %d URLs, the graph has %d", len(got), len(want))
	}
	if hits := s.Stats().TrapHits; hits != 0 {
		t.Errorf("%d links followed from comments or scripts", hits)
	}
}

func TestARedirectIsALinkWithinTheChainLimit(t *testing.T) {
	f, err := crawlrules.New("http://example.test/")
	if err != nil {
		t.Fatal(err)
	}
	it, _ := f.Next()
	f.Visit(it, crawlrules.Response{Status: 302, Location: "/a"})
	next, ok := f.Next()
	if !ok || next.URL != "http://example.test/a" {
		t.Fatalf("after a redirect to /a: %q, %v", next.URL, ok)
	}
	// Redirects back to a URL already seen are merged, not fetched again.
	f.Visit(next, crawlrules.Response{Status: 301, Location: "http://EXAMPLE.test:80/"})
	if _, ok := f.Next(); ok {
		t.Fatal("a redirect back to the root was queued again")
	}
	// Off-site targets are out of scope.
	f.Visit(next, crawlrules.Response{Status: 307, Location: "http://elsewhere.test/"})
	if _, ok := f.Next(); ok {
		t.Fatal("an off-site redirect was queued")
	}
}

func TestChainsStopAtMaxRedirect(t *testing.T) {
	f, _ := crawlrules.New("http://example.test/")
	it, _ := f.Next()
	hops := 0
	for {
		f.Visit(it, crawlrules.Response{Status: 302, Location: "/" + string(rune('a'+hops))})
		next, ok := f.Next()
		if !ok {
			break
		}
		it = next
		hops++
	}
	if hops != crawlrules.MaxRedirect {
		t.Fatalf("followed %d redirects, want %d", hops, crawlrules.MaxRedirect)
	}
}
