package urlnorm

import (
	"errors"
	"net/url"
	"testing"
)

func TestResolve(t *testing.T) {
	base := mustParse(t, "http://example.com/dir/page.html?x=1")
	tests := []struct {
		name, ref, want string
	}{
		{"relative path", "other.html", "http://example.com/dir/other.html"},
		{"parent directory", "../up.html", "http://example.com/up.html"},
		{"absolute path", "/root.html", "http://example.com/root.html"},
		{"query only", "?y=2", "http://example.com/dir/page.html?y=2"},
		{"fragment only is the page itself", "#section", "http://example.com/dir/page.html?x=1"},
		{"empty href is the page itself", "", "http://example.com/dir/page.html?x=1"},
		{"scheme-relative", "//Other.example.org/a", "http://other.example.org/a"},
		{"absolute URL is normalized", "HTTPS://Example.com:443/a/./b", "https://example.com/a/b"},
		{"surrounding whitespace is trimmed", " \t\n/a.html \r\n", "http://example.com/a.html"},
		{"a lone carriage return inside is removed", "/a\rb.html", "http://example.com/ab.html"},
		{"tabs and newlines inside are removed", "/a\n/b\t.html", "http://example.com/a/b.html"},
		{"inner spaces are escaped, not removed", "a b.html", "http://example.com/dir/a%20b.html"},
		{"upper-case scheme is accepted", "HTTP://example.com/", "http://example.com/"},
		{"a colon in a first segment that is no scheme", "1a:b", "http://example.com/dir/1a:b"},
		{"a first segment that starts with a colon", ":x/y", "http://example.com/dir/:x/y"},
		{"a colon after the first slash", "a/b:c", "http://example.com/dir/a/b:c"},

		// Backslashes, as browsers read them in http(s) URLs.
		{"backslashes in a path", `\foo\bar`, "http://example.com/foo/bar"},
		{"backslashes make a scheme-relative link", `\\Other.org\x`, "http://other.org/x"},
		{"backslashes after the scheme", `https:\\other.org\x`, "https://other.org/x"},
		{"mixed slashes", `/\other.org/x`, "http://other.org/x"},
		{"a relative path with backslashes", `a\b`, "http://example.com/dir/a/b"},
		{"backslash dot segments", `..\up\.\x`, "http://example.com/up/x"},
		{"a backslash in the query is data", `/a\b?q=\x`, "http://example.com/a/b?q=%5Cx"},
		{"a backslash in the fragment changes nothing", `/a#\x`, "http://example.com/a"},

		// A "%" that starts no escape is data, as in a browser.
		{"stray percent at the end", "/100%", "http://example.com/100%25"},
		{"stray percent before non-hex", "/a%zz", "http://example.com/a%25zz"},
		{"stray percent before one hex digit", "/a%2", "http://example.com/a%252"},
		{"stray percent before hex and non-hex", "/a%2z", "http://example.com/a%252z"},
		{"a lone percent", "%", "http://example.com/dir/%25"},
		{"valid escapes stay", "/%41%2f%C3%BC?q=%3d", "http://example.com/A%2F%C3%BC?q=%3D"},
		{"stray and valid together", "/%%41%", "http://example.com/%25A%25"},
		{"stray percent in the query", "/a?q=100%&r=%zz", "http://example.com/a?q=100%25&r=%25zz"},
		{"stray percent in the fragment", "/a#50%", "http://example.com/a"},
		{"stray percent in the userinfo", "//u%zz@other.org/", "http://other.org/"},
		{"IDN host becomes Punycode", "//BÜCHER.de/a", "http://xn--bcher-kva.de/a"},
		{"credentials are dropped", "http://u:p@example.com/x", "http://example.com/x"},
		{"scheme-relative credentials are dropped", "//@example.com/x", "http://example.com/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := Resolve(base, tt.ref)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.ref, err)
			}
			if got := u.String(); got != tt.want {
				t.Errorf("Resolve(%q) = %q, want %q", tt.ref, got, tt.want)
			}
		})
	}
}

func TestResolveRefusesOtherSchemes(t *testing.T) {
	base := mustParse(t, "http://example.com/")
	for _, ref := range []string{
		"javascript:void(0)",
		" JavaScript:alert(1)",
		"mailto:someone@example.com",
		"ftp://example.com/file",
		"data:text/html;base64,PGI+aGk8L2I+",
		"tel:+15555550100",
		"http:no-slashes", // parses, but has no host
		// Refused by its scheme, before parsing: url.Parse would fail on it.
		"web.app://[unclosed",
		"web+app-09://[unclosed",
	} {
		u, err := Resolve(base, ref)
		if !errors.Is(err, ErrNotCrawlable) {
			t.Errorf("Resolve(%q) = %v, %v; want ErrNotCrawlable", ref, u, err)
		}
		if u != nil {
			t.Errorf("Resolve(%q) returned a URL with its error", ref)
		}
	}
}

// TestResolveNeedsAHost: a link that resolves to an http(s) URL without a
// host is refused (FuzzExtract once found <a href=//.> → "http:").
func TestResolveNeedsAHost(t *testing.T) {
	base := mustParse(t, "http://example.com/dir/")
	for _, ref := range []string{"//.", "//./x", "//../", "//:80/", "http://./", "https://:443", "//@/"} {
		u, err := Resolve(base, ref)
		if !errors.Is(err, ErrNotCrawlable) || u != nil {
			t.Errorf("Resolve(%q) = %v, %v; want ErrNotCrawlable", ref, u, err)
		}
	}
}

func TestResolveInvalidHost(t *testing.T) {
	base := mustParse(t, "http://example.com/")
	for _, ref := range []string{"http://xn--zz.example.com/", "//a<b/", "//a%zz.com/"} {
		u, err := Resolve(base, ref)
		if !errors.Is(err, ErrInvalidHost) || u != nil {
			t.Errorf("Resolve(%q) = %v, %v; want ErrInvalidHost", ref, u, err)
		}
	}
}

func TestResolveMalformed(t *testing.T) {
	base := mustParse(t, "http://example.com/")
	u, err := Resolve(base, "http://[::1/")
	if err == nil || errors.Is(err, ErrNotCrawlable) {
		t.Errorf("Resolve(malformed) = %v, %v; want a parse error", u, err)
	}
}

func mustParse(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestResolveNeedsAbsoluteBase(t *testing.T) {
	for _, base := range []*url.URL{nil, {Path: "/relative"}} {
		if u, err := Resolve(base, "/a"); err == nil {
			t.Errorf("Resolve(%v, /a) = %v, want an error", base, u)
		}
	}
}

// TestSchemeOf: RFC 3986 §3.1, a letter first, then letters, digits, "+",
// "-" or "."; anything else before the colon means no scheme.
func TestSchemeOf(t *testing.T) {
	for ref, want := range map[string]string{
		"HTTP://x":   "http",
		"a1+-.:x":    "a1+-.",
		"1a:b":       "", // a digit cannot start a scheme
		"+a:b":       "",
		":x":         "",
		"a_b:c":      "",
		"no-colon":   "",
		"/a:b":       "",
		"mailto:x@y": "mailto",
	} {
		if got := schemeOf(ref); got != want {
			t.Errorf("schemeOf(%q) = %q, want %q", ref, got, want)
		}
	}
}
