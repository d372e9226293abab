package urlnorm

import (
	"net/url"
	"testing"
)

func TestScope(t *testing.T) {
	tests := []struct {
		name    string
		roots   []string
		lenient bool
		url     string
		want    bool
	}{
		// Strict: the root host and its www twin.
		{"strict: same host", []string{"http://example.com/"}, false, "http://example.com/a", true},
		{"strict: www twin of the root", []string{"http://example.com/"}, false, "http://www.example.com/", true},
		{"strict: root is the www host", []string{"http://www.example.com/"}, false, "http://example.com/", true},
		{"strict: other subdomain", []string{"http://example.com/"}, false, "http://news.example.com/", false},
		{"strict: other site", []string{"http://example.com/"}, false, "http://example.org/", false},
		{"strict: host case and trailing dot", []string{"http://example.com/"}, false, "http://EXAMPLE.com./", true},
		{"strict: no twin for a public suffix", []string{"http://www.co.uk/"}, false, "http://co.uk/", false},
		{"strict: no twin for a name without a dot", []string{"http://localhost/"}, false, "http://www.localhost/", false},

		// Lenient: the same registrable domain.
		{"lenient: subdomain", []string{"http://bbc.co.uk/"}, true, "http://news.bbc.co.uk/", true},
		{"lenient: parent of a subdomain root", []string{"http://news.bbc.co.uk/"}, true, "http://bbc.co.uk/", true},
		{"lenient: sibling under the same suffix", []string{"http://bbc.co.uk/"}, true, "http://evil.co.uk/", false},
		{"lenient: private suffix", []string{"https://alice.github.io/"}, true, "https://bob.github.io/", false},
		{"lenient: unknown TLD", []string{"http://wiki.corp.internal/"}, true, "http://git.corp.internal/", true},

		// IP addresses and localhost match only themselves.
		{"IPv4 exact", []string{"http://127.0.0.1:8080/"}, true, "http://127.0.0.1:8080/x", true},
		{"IPv4 no domain", []string{"http://10.0.0.1/"}, true, "http://20.0.0.1/", false},
		{"IPv4 no www twin", []string{"http://10.0.0.1/"}, false, "http://www.10.0.0.1/", false},
		{"IPv6 exact", []string{"http://[::1]:8080/"}, true, "http://[0:0::1]:8080/", true},
		{"IPv6 other", []string{"http://[::1]/"}, false, "http://[::2]/", false},
		{"localhost exact", []string{"http://localhost:8000/"}, true, "http://localhost:8000/a", true},
		{"localhost is not a domain", []string{"http://localhost/"}, true, "http://foo.localhost/", false},

		// Ports: default ports are interchangeable, others must be a root's.
		{"http root admits https", []string{"http://example.com/"}, false, "https://example.com/", true},
		{"https root admits http", []string{"https://example.com/"}, false, "http://www.example.com/", true},
		{"explicit default port", []string{"http://example.com/"}, false, "http://example.com:80/", true},
		{"other port of an allowed host", []string{"http://example.com/"}, false, "http://example.com:8080/", false},
		{"port of a root", []string{"http://example.com:8080/"}, false, "http://example.com:8080/a", true},
		{"port of a root, www twin", []string{"http://example.com:8080/"}, false, "http://www.example.com:8080/", true},
		{"default port when the root has another", []string{"http://example.com:8080/"}, false, "http://example.com/", false},
		{"http on 443 is not https", []string{"https://example.com/"}, false, "http://example.com:443/", false},
		{"one port, both schemes", []string{"http://127.0.0.1:8080/"}, false, "https://127.0.0.1:8080/x", true},
		{"one port, both schemes, www twin", []string{"https://example.com:8443/"}, false, "http://www.example.com:8443/", true},
		{"lenient: port of a root, other subdomain", []string{"http://example.com:8080/"}, true, "http://a.example.com:8080/", true},

		// Internationalized names: one host, whichever way it is spelt.
		{"IDN root admits Punycode", []string{"http://bücher.de/"}, false, "http://XN--BCHER-KVA.de/x", true},
		{"Punycode root admits IDN www twin", []string{"http://xn--bcher-kva.de/"}, false, "http://www.BÜCHER.de/", true},
		{"lenient: IDN subdomain root", []string{"http://shop.bücher.de/"}, true, "http://xn--bcher-kva.de/", true},
		{"lenient: a Unicode suffix rule", []string{"http://example.公司.cn/"}, true, "http://www.example.xn--55qx5d.cn/", true},
		{"lenient: not across a Unicode suffix", []string{"http://example.公司.cn/"}, true, "http://other.公司.cn/", false},
		{"lenient: an invalid host is never in scope", []string{"http://example.com/"}, true, "http://xn--zz.example.com/", false},

		// Several roots.
		{"second root", []string{"http://a.com/", "http://b.com/"}, false, "http://www.b.com/", true},

		// Never crawlable.
		{"other scheme on an allowed host", []string{"http://example.com/"}, false, "ftp://example.com/", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var roots []*url.URL
			for _, r := range tt.roots {
				roots = append(roots, mustParse(t, r))
			}
			s := NewScope(roots, tt.lenient)
			if got := s.Allowed(mustParse(t, tt.url)); got != tt.want {
				t.Errorf("roots %v lenient=%v: Allowed(%q) = %v, want %v",
					tt.roots, tt.lenient, tt.url, got, tt.want)
			}
		})
	}
}

func TestScopeSkipsUncrawlableRoots(t *testing.T) {
	s := NewScope([]*url.URL{mustParse(t, "mailto:a@example.com")}, false)
	if s.Allowed(mustParse(t, "http://example.com/")) {
		t.Error("a mailto: root put example.com in scope")
	}
	// Skipped, not the end of the list: the roots after them still count.
	s = NewScope([]*url.URL{mustParse(t, "mailto:a@example.com"), mustParse(t, "http://xn--zz.com/"), mustParse(t, "http://b.test/")}, false)
	if !s.Allowed(mustParse(t, "http://b.test/x")) {
		t.Error("a root after an uncrawlable and an invalid one is not in scope")
	}
}

func TestScopeNormalizesWhatItIsGiven(t *testing.T) {
	s := NewScope([]*url.URL{mustParse(t, "HTTP://Example.COM.:0080/")}, false)
	for _, u := range []string{"http://example.com/", "http://WWW.example.com:80/", "https://example.com:0443/"} {
		if !s.Allowed(mustParse(t, u)) {
			t.Errorf("Allowed(%q) = false", u)
		}
	}
	// A url.URL built by hand may keep an upper-case scheme: its default
	// port is still no port.
	if u := (&url.URL{Scheme: "HTTP", Host: "Example.com:80", Path: "/"}); !s.Allowed(u) {
		t.Errorf("Allowed(%v) = false", u)
	}
}

// TestLenientScopeAddsNoWWWTwin: a lenient scope compares registrable
// domains, where "www." twins mean nothing; a root that is a public suffix
// itself must not admit "www." under it.
func TestLenientScopeAddsNoWWWTwin(t *testing.T) {
	s := NewScope([]*url.URL{mustParse(t, "http://co.uk/")}, true)
	if !s.Allowed(mustParse(t, "http://co.uk/x")) || s.Allowed(mustParse(t, "http://www.co.uk/")) {
		t.Errorf("root co.uk, lenient: co.uk %v, www.co.uk %v; want true, false",
			s.Allowed(mustParse(t, "http://co.uk/x")), s.Allowed(mustParse(t, "http://www.co.uk/")))
	}
}
