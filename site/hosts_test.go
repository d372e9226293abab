package site

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// newTestSite builds a site without serving it, as if host 0 listened on 127.0.0.1:8080
// (and host h on 8080+h), for crawls in process.
func newTestSite(t *testing.T, cfg Config) *Site {
	t.Helper()
	s, err := newSite(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.addr = "127.0.0.1:8080"
	return s
}

// byPort routes each request to the handler of the host its port names, as the
// listeners of Start do, whatever the host name.
func byPort(t *testing.T, s *Site) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := portOf(r.Host) - portOf(s.addr)
		if h < 0 || h >= s.hosts {
			t.Errorf("a request for %s, on none of the hosts", r.Host)
			http.NotFound(w, r)
			return
		}
		s.handlers[h].ServeHTTP(w, r)
	})
}

// originOf is "http://host:port" of a URL.
func originOf(t *testing.T, raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Scheme + "://" + u.Host
}

// A site split over hosts: a reference crawl from every host's root, reading the real
// pages over the network, fetches exactly Expected, each URL from the host it belongs
// to, each once, with or without robots.txt; and the links really cross: on every host,
// a good share of the pages are reached only from other hosts.
func TestHostsReferenceCrawl(t *testing.T) {
	const hosts = 4
	for _, robots := range []bool{false, true} {
		s := startSite(t, Config{Pages: 600, Hosts: hosts, Seed: 7})
		roots := s.URLs()
		fetched, from := referenceCrawlFrom(t, overNetwork(newClient(t)), roots, robots)

		want := s.Expected(robots)
		got := slices.Sorted(maps.Keys(fetched))
		if !slices.Equal(got, want) {
			t.Fatalf("robots=%v: the crawl and Expected differ:\n%s", robots, diff(got, want))
		}
		for u, status := range fetched {
			if want := s.Status(u); status != want {
				t.Errorf("robots=%v: GET %s: %d, the graph says %d", robots, u, status, want)
			}
		}

		// Seen from the server: each host was asked for its own URLs, each once.
		st := s.Stats()
		if len(st.Hosts) != hosts {
			t.Fatalf("Stats has %d hosts, want %d", len(st.Hosts), hosts)
		}
		perHost := make([]int, hosts)
		for _, u := range want {
			perHost[slices.Index(roots, originOf(t, u)+"/")]++
		}
		var sum int64
		for h, hs := range st.Hosts {
			wantRequests := int64(perHost[h])
			if robots {
				wantRequests++ // its robots.txt
			}
			if hs.Requests != wantRequests {
				t.Errorf("robots=%v: host %d served %d requests, want %d", robots, h, hs.Requests, wantRequests)
			}
			for p, n := range hs.Paths {
				if n != 1 {
					t.Errorf("robots=%v: host %d: %s requested %d times", robots, h, p, n)
				}
			}
			if perHost[h] < len(want)/(2*hosts) {
				t.Errorf("robots=%v: host %d holds %d of %d URLs", robots, h, perHost[h], len(want))
			}
			sum += hs.Requests
		}
		if st.Requests != sum || st.TrapHits != 0 {
			t.Errorf("robots=%v: %d requests in all, %d over the hosts; %d trap hits", robots, st.Requests, sum, st.TrapHits)
		}

		// On every host, a fifth of the pages or more have no link from their own host.
		only := make([]int, hosts)
		for u := range fetched {
			if o := originOf(t, u); !from[u][o] && u != o+"/" {
				only[slices.Index(roots, o+"/")]++
			}
		}
		for h := range hosts {
			if only[h]*5 < perHost[h] {
				t.Errorf("robots=%v: host %d: %d of its %d URLs are reached only from other hosts, want a fifth or more",
					robots, h, only[h], perHost[h])
			}
		}
	}
}

// Sites of other shapes and host counts (more hosts than categories, padded pages
// whose prose links across hosts too) agree with their graph, crawled in process.
func TestHostsOtherShapes(t *testing.T) {
	for _, cfg := range []Config{
		{Pages: 1, Hosts: 2},
		{Pages: 60, FanOut: 1, Depth: 1, Seed: 2, Hosts: 3},
		{Pages: 300, Seed: 3, Hosts: 25}, // 5 categories: most hosts hold books only
		{Pages: 1200, FanOut: 7, Depth: 5, Seed: 3, Hosts: 6},
		{Pages: 120, Seed: 4, PageBytes: 16 << 10, Hosts: 2},
	} {
		s := newTestSite(t, cfg)
		for _, robots := range []bool{false, true} {
			fetched, _ := referenceCrawlFrom(t, inProcess(byPort(t, s)), s.URLs(), robots)
			if got, want := slices.Sorted(maps.Keys(fetched)), s.Expected(robots); !slices.Equal(got, want) {
				t.Errorf("%+v robots=%v: the crawl and Expected differ:\n%s", cfg, robots, diff(got, want))
			}
		}
	}
}

// A site with more categories than the home page lists (homeCategories) lists host
// 0's there; every other host's front page lists its own, so the crawl still reaches
// every category, and the home page no other host's.
func TestHomePageOfABigSiteListsHostZerosCategories(t *testing.T) {
	defer func(n int) { homeCategories = n }(homeCategories)
	homeCategories = 4
	cfg := Config{Pages: 600, Seed: 6, Hosts: 3} // 10 categories
	s := newTestSite(t, cfg)
	_, home := s.node("/")
	listed := 0
	for k := range s.cat.cats {
		first := on(s.cat.listHost(k), s.cat.listPath(k, 1))
		if on := slices.Contains(home, first); on != (s.cat.listHost(k) == 0) {
			t.Errorf("category %d, on host %d: on the home page %v", k, s.cat.listHost(k), on)
		} else if on {
			listed++
		}
	}
	if len(s.cat.cats) <= homeCategories || listed == 0 {
		t.Fatalf("%d categories, %d on the home page: not a site past the cap", len(s.cat.cats), listed)
	}
	fetched, _ := referenceCrawlFrom(t, inProcess(byPort(t, s)), s.URLs(), true)
	if got, want := slices.Sorted(maps.Keys(fetched)), s.Expected(true); !slices.Equal(got, want) {
		t.Errorf("the crawl and Expected differ:\n%s", diff(got, want))
	}
	for k := range s.cat.cats {
		if u := strings.TrimSuffix(s.URLs()[s.cat.listHost(k)], "/") + s.cat.listPath(k, 1); fetched[u] == 0 {
			t.Errorf("category %d's first page %s was not reached", k, u)
		}
	}
}

// One host is the one-host site, link for link; more hosts share out the same pages,
// so the site has the same paths whatever the number of hosts, and the home page
// links every other host's root.
func TestHostsSplitTheSamePages(t *testing.T) {
	one := newTestSite(t, Config{Pages: 400, Seed: 9})
	paths := func(s *Site) []string {
		var out []string
		for _, u := range s.Expected(false) {
			p := strings.TrimPrefix(u, originOf(t, u))
			if p != "/" {
				out = append(out, p)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	for _, hosts := range []int{2, 5, 20} {
		s := newTestSite(t, Config{Pages: 400, Seed: 9, Hosts: hosts})
		if a, b := paths(one), paths(s); !slices.Equal(a, b) {
			t.Errorf("%d hosts: other paths than one host's:\n%s", hosts, diff(b, a))
		}
		_, home := s.node("/")
		for h := 1; h < hosts; h++ {
			if !slices.Contains(home, on(h, "/")) {
				t.Errorf("%d hosts: the home page does not link host %d", hosts, h)
			}
		}
	}
}

// Every page has exactly one host: the same path on any other host is a 404.
func TestHostsEachPageOnOneHost(t *testing.T) {
	s := newTestSite(t, Config{Pages: 300, Seed: 5, Hosts: 3})
	fetch := inProcess(byPort(t, s))
	checked := 0
	for _, u := range s.Expected(false) {
		own := originOf(t, u)
		if status, _, _, _ := fetch(u); status == http.StatusNotFound || u == own+"/" {
			continue // 404s are 404s everywhere, and every host has a root
		}
		for _, root := range s.URLs() {
			if root == own+"/" {
				continue
			}
			other := root + strings.TrimPrefix(u, own+"/")
			if status, _, _, _ := fetch(other); status != http.StatusNotFound {
				t.Errorf("%s is on another host, but %s answers %d", u, other, status)
			}
			checked++
		}
	}
	if checked < 500 {
		t.Fatalf("only %d URLs checked", checked)
	}
}

// A link to another host names the host the client asked for, with the other host's
// port: a site reached as localhost links to localhost, and an IPv6 address keeps its
// brackets.
func TestHostsLinksUseTheClientsName(t *testing.T) {
	s := newTestSite(t, Config{Pages: 100, Seed: 3, Hosts: 3})
	for _, name := range []string{"localhost", "[::1]", "127.0.0.1"} {
		req := httptest.NewRequest(http.MethodGet, "http://"+name+":8080/", nil)
		rec := httptest.NewRecorder()
		byPort(t, s).ServeHTTP(rec, req)
		body := rec.Body.String()
		for h := 1; h < 3; h++ {
			want := `href="http://` + name + ":" + strconv.Itoa(8080+h) + `/"`
			if !strings.Contains(body, want) {
				t.Errorf("Host %s: the home page lacks %s", name, want)
			}
		}
		if strings.Contains(body, "{{") {
			t.Errorf("Host %s: a placeholder is left in the home page", name)
		}
	}
}
