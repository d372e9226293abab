package urlnorm

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"the reference case",
			"HTTP://www.Example.COM:80/a/./b/../c/%7euser?q=%3a#frag",
			"http://www.example.com/a/c/~user?q=%3A"},

		// Scheme and host.
		{"scheme and host are lower-cased", "HtTpS://EXAMPLE.org/Path", "https://example.org/Path"},
		{"path keeps its case", "http://example.com/A/b", "http://example.com/A/b"},
		{"trailing dot in host is dropped", "http://example.com./a", "http://example.com/a"},
		{"default http port is dropped", "http://example.com:80/", "http://example.com/"},
		{"default https port is dropped", "https://example.com:443/", "https://example.com/"},
		{"another scheme's default is kept", "http://example.com:443/", "http://example.com:443/"},
		{"other ports are kept", "https://example.com:8443/", "https://example.com:8443/"},
		{"port loses leading zeros", "http://example.com:0080/", "http://example.com/"},
		{"a port past 65535 is left as written", "http://example.com:099999/", "http://example.com:099999/"},
		{"empty port is dropped", "http://example.com:/", "http://example.com/"},
		{"IPv6 literal keeps brackets and port", "http://[::1]:8080/", "http://[::1]:8080/"},
		{"IPv6 literal is made canonical", "http://[2001:DB8:0:0:0:0:0:1]:80/", "http://[2001:db8::1]/"},
		{"IPv4 literal is left alone", "http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x"},

		// Host names are mapped by IDNA (UTS #46), as browsers map them.
		{"IDN host becomes Punycode", "http://bücher.de/", "http://xn--bcher-kva.de/"},
		{"IDN host is case-folded first", "http://BÜCHER.de/", "http://xn--bcher-kva.de/"},
		{"escaped UTF-8 host", "http://b%C3%BCcher.de/", "http://xn--bcher-kva.de/"},
		{"Punycode host stays Punycode", "http://XN--BCHER-KVA.de/", "http://xn--bcher-kva.de/"},
		{"full-width letters are mapped", "http://ｅｘａｍｐｌｅ.com/", "http://example.com/"},
		{"a host of non-ASCII letters only", "http://ü/", "http://xn--tda/"},
		{"ideographic full stop is a dot", "http://example。com。/", "http://example.com/"},
		{"nontransitional: ß is kept", "http://faß.de/", "http://xn--fa-hia.de/"},
		{"hyphens anywhere, as browsers allow", "http://r3---sn-abc.example.com/", "http://r3---sn-abc.example.com/"},
		{"underscore, as browsers allow", "http://my_host.example.com/", "http://my_host.example.com/"},
		{"other schemes' hosts are only lower-cased", "foo://BÜCHER/", "foo://b%C3%BCcher/"},

		// Userinfo: credentials are no part of an http(s) resource.
		{"user and password are dropped", "http://u:p@Example.com/x", "http://example.com/x"},
		{"an empty userinfo is dropped", "http://@example.com/x", "http://example.com/x"},
		{"a user name alone is dropped", "https://u@example.com:443/x", "https://example.com/x"},
		{"other schemes keep their userinfo", "ftp://alice@Example.com/", "ftp://alice@example.com/"},
		{"other schemes' IPv6 literals are made canonical", "ftp://[0:0::1]/", "ftp://[::1]/"},
		{"other schemes' hosts lose a trailing dot", "ftp://A.Test./x", "ftp://a.test/x"},
		{"other schemes' unbracketed colons are kept, lower-cased", "ftp://A::1/", "ftp://a::1/"},
		{"the highest port loses its leading zero", "http://example.com:065535/", "http://example.com:65535/"},

		// Path.
		{"empty path becomes /", "http://example.com", "http://example.com/"},
		{"empty path becomes / before a query", "http://example.com?a=1", "http://example.com/?a=1"},
		{"dot segments are removed", "http://example.com/a/b/c/./../../g", "http://example.com/a/g"},
		{"final .. leaves a directory", "http://example.com/a/b/..", "http://example.com/a/"},
		{"final . leaves a directory", "http://example.com/a/b/.", "http://example.com/a/b/"},
		{".. stops at the root", "http://example.com/../../a", "http://example.com/a"},
		{"escaped dots are dot segments too", "http://example.com/a/%2E%2E/b", "http://example.com/b"},
		{"..b is not a dot segment", "http://example.com/a/..b", "http://example.com/a/..b"},
		{"double slashes are kept", "http://example.com//a//b", "http://example.com//a//b"},
		{"unreserved escapes are decoded", "http://example.com/%41%62%2d%5F%7E", "http://example.com/Ab-_~"},
		// The first and last of each range of unreserved characters, and
		// their reserved neighbours, which stay escaped.
		{"unreserved ranges end where they should", "http://example.com/%61%7A%41%5A%30%39%2D%2E%5F%7E%60%7B%40%5B%2F%3A",
			"http://example.com/azAZ09-._~%60%7B%40%5B%2F%3A"},
		{"every hex digit, in either case", "http://example.com/%30%39%3a%3A%3f%3F%4a%4B%4c%4D%4e%4F%a0%B0%c0%D0%e0%F0",
			"http://example.com/09%3A%3A%3F%3FJKLMNO%A0%B0%C0%D0%E0%F0"},
		{"sub-delims, colon and at sign stay raw in the path", "http://example.com/!$&'()*+,;=:@", "http://example.com/!$&'()*+,;=:@"},
		{"reserved escapes get upper-case hex", "http://example.com/a%2fb%3a", "http://example.com/a%2Fb%3A"},
		// Only bytes past 0x9F have a letter for their first hex digit.
		{"both hex digits are upper-cased", "http://example.com/%c3%bc?q=%e2%82%ac", "http://example.com/%C3%BC?q=%E2%82%AC"},
		{"escaped slash stays inside its segment", "http://example.com/a%2Fb/../c", "http://example.com/c"},
		{"escaped question mark stays in the path", "http://example.com/a%3Fb", "http://example.com/a%3Fb"},
		{"space is escaped", "http://example.com/a b", "http://example.com/a%20b"},
		{"non-ASCII is escaped", "http://example.com/ü", "http://example.com/%C3%BC"},

		// Query.
		{"query escapes are normalized", "http://example.com/?a=%7e&b=%2f", "http://example.com/?a=~&b=%2F"},
		{"query order is kept", "http://example.com/?b=2&a=1", "http://example.com/?b=2&a=1"},
		{"query raw bytes are escaped", "http://example.com/?q=a b&r=ü", "http://example.com/?q=a%20b&r=%C3%BC"},
		{"sub-delims, colon, at sign, slash and ? stay raw in the query", "http://example.com/?!$&'()*+,;=:@/?", "http://example.com/?!$&'()*+,;=:@/?"},
		{"other printable ASCII is escaped in the query", "http://example.com/?\"<>`{}|\\^", "http://example.com/?%22%3C%3E%60%7B%7D%7C%5C%5E"},
		{"stray percent is escaped", "http://example.com/?q=100%", "http://example.com/?q=100%25"},
		{"a percent before one last hex digit is escaped", "http://example.com/?q=%4", "http://example.com/?q=%254"},
		{"escaped ampersand stays escaped", "http://example.com/?q=a%26b", "http://example.com/?q=a%26b"},
		{"a question mark in the query stays raw", "http://example.com/s?q=a?b", "http://example.com/s?q=a?b"},
		{"apostrophes stay raw", "http://example.com/it's?q='x'", "http://example.com/it's?q='x'"},
		{"empty query is kept", "http://example.com/a?", "http://example.com/a?"},

		// Fragment.
		{"fragment is dropped", "http://example.com/a#top", "http://example.com/a"},
		{"empty fragment is dropped", "http://example.com/a#", "http://example.com/a"},

		// Other schemes are only lower-cased.
		{"opaque URL", "MAILTO:Someone@Example.com", "mailto:Someone@Example.com"},
		{"no host, no path: no / added", "X:?q", "x:?q"},
		// Without a host, a path that comes out as "//etc" would read back
		// as host "etc".
		{"no host, a path of //: /. in front", "file:/a/..//etc", "file:/.//etc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.in)
			if err != nil {
				t.Fatalf("Normalize(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Normalize(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			again, err := Normalize(got)
			if err != nil || again != got {
				t.Errorf("not idempotent: Normalize(%q) = %q, %v", got, again, err)
			}
		})
	}
}

func TestNormalizeErrors(t *testing.T) {
	for _, in := range []string{
		"/relative/path",          // needs a base
		"http://example.com/%zz",  // malformed escape
		"http://[::1/",            // unclosed bracket
		"http://example.com:port", // non-numeric port
	} {
		if got, err := Normalize(in); err == nil {
			t.Errorf("Normalize(%q) = %q, want an error", in, got)
		}
	}
}

// TestErrorsCarryNoCredentials: error messages end up in logs and reports,
// so a URL that fails must not take its password there either.
func TestErrorsCarryNoCredentials(t *testing.T) {
	base := mustParse(t, "http://example.com/")
	var errs []error
	for _, in := range []string{
		"http://u:secret@example.com:port/", // url.Parse fails
		"//u:secret@example.com/",           // relative
		"//u:x@secret@example.com/",         // the last "@" ends the userinfo
	} {
		_, err := Normalize(in)
		errs = append(errs, err)
	}
	for _, ref := range []string{
		"http://u:secret@example.com:port/",
		"http://u:secret@:80/", // parses, but has no host
	} {
		_, err := Resolve(base, ref)
		errs = append(errs, err)
	}
	for i, err := range errs {
		if err == nil {
			t.Errorf("case %d: no error", i)
		} else if strings.Contains(err.Error(), "secret") {
			t.Errorf("case %d: the error shows the password: %v", i, err)
		}
	}
}

// TestErrorsNameTheURLWithoutUserinfo: what an error leaves out is the
// userinfo and its "@", nothing more and nothing less.
func TestErrorsNameTheURLWithoutUserinfo(t *testing.T) {
	for _, in := range []string{"//u:secret@example.com/x", "//@example.com/x"} {
		_, err := Normalize(in)
		if err == nil || !strings.Contains(err.Error(), `"//example.com/x"`) {
			t.Errorf("Normalize(%q): %v; want an error naming \"//example.com/x\"", in, err)
		}
	}
}

// TestNormalizeInvalidHosts: a host name IDNA refuses, or one with a
// character no host may hold, makes the URL an error a caller can tell
// from other errors.
func TestNormalizeInvalidHosts(t *testing.T) {
	for _, in := range []string{
		"http://xn--zz.com/",       // not valid Punycode
		"http://xn--abc-.com/",     // Punycode for plain "abc": another DNS name
		"http://www.xn--abc-.com/", // the same, after a label that is no Punycode
		"http://xn--.example/",     // Punycode for nothing
		"http://a.xn--/",           // the same, as the last label
		"http://xn--/",             // and as the only one
		"http://1a.xn--mgbh0fb/",   // the Bidi rule: a right-to-left name, a label starting with a digit
		"http://a\u200db.com/",     // a zero-width joiner out of context (CheckJoiners)
		"http://\ufffd.com/",       // a disallowed code point
		"http://\xbc.com/",         // not UTF-8 (found by FuzzNormalize)
		"http://%BC.com/",          // the same, escaped
		"http://a<b.com/",          // forbidden characters that net/url lets through
		"http://xn--abc-。test/",    // an ideographic full stop ends a label too
		"http://xn--abc-．test/",    // and so does a full-width one
		"http://xn--abc-｡test/",    // and a half-width one
		"http://a%25b.com/",        //
		"https://a::80/",           // a colon in a name
		"http://www.xn--zz.co.uk/", //
		"http://XN--ZZ.com/",       // upper-case Punycode is Punycode, checked the same
		"http://a\uff3eb.com/",     // a full-width caret, which IDNA maps to a caret
	} {
		got, err := Normalize(in)
		if !errors.Is(err, ErrInvalidHost) {
			t.Errorf("Normalize(%q) = %q, %v; want ErrInvalidHost", in, got, err)
		}
	}
}

// TestForbiddenHostCharacters: the URL Standard's forbidden domain code
// points make a host invalid, on either side of each range's edge, and
// printable ASCII outside that list does not. (url.Parse refuses most of
// them first; a url.URL built by hand, or a host IDNA maps into ASCII, is
// only checked here.)
func TestForbiddenHostCharacters(t *testing.T) {
	for _, c := range "\x00\x1f #%/:<>?@[\\]^|\x7f" {
		if got, err := domainToASCII("a" + string(c) + "b.example"); !errors.Is(err, ErrInvalidHost) {
			t.Errorf("domainToASCII with %q = %q, %v; want ErrInvalidHost", c, got, err)
		}
	}
	for _, c := range "!\"$&'()*+,;=`{}~" {
		if _, err := domainToASCII("a" + string(c) + "b.example"); err != nil {
			t.Errorf("domainToASCII with %q: %v", c, err)
		}
	}
}

// TestDomainToASCIIFastPath checks the shortcut for plain ASCII names
// against x/net/idna itself, for every ASCII character in every position
// of a label: lower-casing must be all that UTS #46 would have done.
func TestDomainToASCIIFastPath(t *testing.T) {
	for c := 0; c < 0x80; c++ {
		for _, name := range []string{string(rune(c)) + "a.Example", "a" + string(rune(c)) + "B.example", "aB" + string(rune(c)) + ".example"} {
			if !plainASCII(name) {
				continue
			}
			got, err := domainToASCII(name)
			want, werr := hostProfile.ToASCII(name)
			if werr == nil && strings.IndexFunc(want, forbiddenInHost) >= 0 {
				werr = errors.New("forbidden")
			}
			if (err == nil) != (werr == nil) || (err == nil && got != want) {
				t.Errorf("domainToASCII(%q) = %q, %v; x/net/idna: %q, %v", name, got, err, want, werr)
			}
		}
	}
}

// TestNormalizeNeedsAHost: an http(s) URL that comes out without a host is
// an error, never "http:///" ("http://./" once became "http:///").
func TestNormalizeNeedsAHost(t *testing.T) {
	for _, in := range []string{
		"http://./",     // "." is the DNS root: it trims to nothing
		"http://../x",   //
		"HTTPS://.:443", //
		"http://:80/",   // a port, no name
		"http://:8080/", // a port that stays, no name
		"http:///x",     // an empty authority
		"http://u:p@/x", // userinfo, no name
		"http:x",        // no authority at all
		"https:/x",      //
	} {
		got, err := Normalize(in)
		if !errors.Is(err, ErrNotCrawlable) {
			t.Errorf("Normalize(%q) = %q, %v; want ErrNotCrawlable", in, got, err)
		}
	}
	// Other schemes may have no host.
	if got, err := Normalize("file:///etc/hosts"); err != nil || got != "file:///etc/hosts" {
		t.Errorf("Normalize(file:///etc/hosts) = %q, %v", got, err)
	}
}

func TestNormalizeURLLeavesInputAlone(t *testing.T) {
	u, _ := url.Parse("HTTP://Example.COM:80/a/../b#f")
	before := *u
	if _, err := NormalizeURL(u); err != nil {
		t.Fatal(err)
	}
	if *u != before {
		t.Errorf("NormalizeURL modified its argument: %+v, was %+v", *u, before)
	}
}

// TestNormalizeURLLowerCasesTheScheme: url.Parse lower-cases a scheme,
// a url.URL built by hand may not; "HTTP" is http all the same, and loses
// its userinfo and default port.
func TestNormalizeURLLowerCasesTheScheme(t *testing.T) {
	u := &url.URL{Scheme: "HTTP", User: url.UserPassword("u", "p"), Host: "Example.COM:80", Path: "/a"}
	n, err := NormalizeURL(u)
	if err != nil {
		t.Fatal(err)
	}
	if got := n.String(); got != "http://example.com/a" {
		t.Errorf("NormalizeURL(%v) = %q, want http://example.com/a", u, got)
	}
}

// TestNormalizeURLDropsTheWholeFragment: RawFragment goes with Fragment,
// so that no field of the result still carries it.
func TestNormalizeURLDropsTheWholeFragment(t *testing.T) {
	u, _ := url.Parse("http://example.com/a#b%2Fc")
	n, err := NormalizeURL(u)
	if err != nil {
		t.Fatal(err)
	}
	if n.Fragment != "" || n.RawFragment != "" {
		t.Errorf("Fragment = %q, RawFragment = %q", n.Fragment, n.RawFragment)
	}
}

// TestNormalizeURLLowerCasesAnIPvFutureLiteral: url.Parse refuses
// "[v1.x]", but a url.URL built by hand may hold one; netip cannot read
// it, so it is only lower-cased, its port still normalized.
func TestNormalizeURLLowerCasesAnIPvFutureLiteral(t *testing.T) {
	n, err := NormalizeURL(&url.URL{Scheme: "ftp", Host: "[V1.ABC]:021", Path: "/"})
	if err != nil {
		t.Fatal(err)
	}
	if n.Host != "[v1.abc]:21" {
		t.Errorf("Host = %q, want [v1.abc]:21", n.Host)
	}
}

func TestNormalizeURLKeepsPathFieldsConsistent(t *testing.T) {
	// Path is the decoded form of RawPath; the crawler reads Path for
	// display and String for requests, so they must agree.
	u, _ := url.Parse("http://example.com/a%2Fb/%7Ec%20d")
	n, err := NormalizeURL(u)
	if err != nil {
		t.Fatal(err)
	}
	if n.Path != "/a/b/~c d" || n.EscapedPath() != "/a%2Fb/~c%20d" {
		t.Errorf("Path = %q, EscapedPath = %q", n.Path, n.EscapedPath())
	}
}

func TestCrawlable(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"http://example.com/", true},
		{"HTTPS://example.com/", true},
		{"ftp://example.com/", false},
		{"mailto:a@example.com", false},
		{"javascript:void(0)", false},
		{"http:relative", false}, // a scheme but no "//": no host
		{"/relative", false},
		{"http://:80/", false}, // a port but no host name
	}
	if opaque := (&url.URL{Scheme: "http", Host: "example.com", Opaque: "//example.com/x"}); Crawlable(opaque) {
		t.Error("Crawlable of a URL with an opaque part = true")
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.in)
		if err != nil {
			t.Fatalf("url.Parse(%q): %v", tt.in, err)
		}
		if got := Crawlable(u); got != tt.want {
			t.Errorf("Crawlable(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if Crawlable(nil) {
		t.Error("Crawlable(nil) = true")
	}
}

// Where no authority follows the scheme, a "//" later in a relative
// reference is path, and an "@" after it no userinfo: the error names the
// reference as it was. A backslash ends an authority, as a slash does.
func TestErrorsKeepWhatIsNoUserinfo(t *testing.T) {
	for _, in := range []string{"/p//u@x", "//example.com\\p@q"} {
		_, err := Normalize(in)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", in)) {
			t.Errorf("Normalize(%q): %v; want an error naming it whole", in, err)
		}
	}
}
