package urlnorm

import (
	"net/url"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// FuzzNormalize checks the two promises every normalizer must keep: it
// never panics, and normalizing twice changes nothing; and the crawler's
// own: an http(s) URL that survives is one the crawler can fetch.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"HTTP://www.Example.COM:80/a/./b/../c/%7euser?q=%3a#frag",
		"http://[::1]:8080/%2e%2E/x?%zz",
		"https://bücher.de./ü/../a b?c=d e#f",
		"http://example.com/a%2Fb/..",
		"mailto:x@y",
		"A000://0..", // found by fuzzing: two trailing dots
		"A://::",     // found by fuzzing: a colon in an unbracketed host
		"A:/.//0",    // found by fuzzing: a path that would become a host
		"http://./",  // once became "http:///"
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		once, err := Normalize(in)
		if err != nil {
			return
		}
		twice, err := Normalize(once)
		if err != nil {
			t.Fatalf("Normalize(%q) = %q, which does not parse: %v", in, once, err)
		}
		if twice != once {
			t.Fatalf("not idempotent: %q → %q → %q", in, once, twice)
		}
		if u, _ := url.Parse(once); u.Scheme == "http" || u.Scheme == "https" {
			checkFetchable(t, u)
		}
	})
}

// FuzzResolve reads arbitrary hrefs as links on a page in one of a few
// encodings. Whatever comes out must be fetchable (see checkFetchable) and
// a fixed point: normalizing it, or resolving it again, gives it back.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		"../a/./b?q=é#f",
		`\\Host\x\..\y?q=\`,
		"/100%?q=%zz%41#%",
		"//bücher.de/ü?ü=日本",
		"HTTPS://u:p@[::1]:443/%7e",
		"//.", // once resolved to "http:"
		`http:\\.\x`,
		"?q=\xff\xfe",
	} {
		for i := range queryEncodings {
			f.Add(s, uint8(i))
		}
	}
	base := mustParse(f, "http://example.com/dir/page.html?x=1")
	f.Fuzz(func(t *testing.T, ref string, encIndex uint8) {
		enc := queryEncodings[int(encIndex)%len(queryEncodings)]
		u, err := ResolveIn(base, ref, enc)
		if (u == nil) == (err == nil) {
			t.Fatalf("ResolveIn(%q) = %v, %v: want a URL or an error", ref, u, err)
		}
		if err != nil {
			return
		}
		checkFetchable(t, u)
		s := u.String()
		if n, err := Normalize(s); n != s || err != nil {
			t.Fatalf("ResolveIn(%q) = %q, which normalizes to %q, %v", ref, s, n, err)
		}
		if again, err := ResolveIn(base, s, enc); err != nil || again.String() != s {
			t.Fatalf("ResolveIn(%q) = %q, which resolves to %v, %v", ref, s, again, err)
		}
	})
}

// queryEncodings are the pages' encodings FuzzResolve tries: nil is UTF-8.
var queryEncodings = []encoding.Encoding{
	nil, charmap.Windows1252, japanese.ShiftJIS, japanese.ISO2022JP, simplifiedchinese.GBK,
}

// checkFetchable fails t unless u is what Resolve and Normalize promise for
// http(s): crawlable, with a host name and no userinfo, and written in
// printable ASCII, ready for a request line.
func checkFetchable(t *testing.T, u *url.URL) {
	t.Helper()
	if !Crawlable(u) || u.Hostname() == "" || u.User != nil {
		t.Fatalf("%q: crawlable %v, host name %q, userinfo %v",
			u, Crawlable(u), u.Hostname(), u.User != nil)
	}
	s := u.String()
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			t.Fatalf("%q: byte %#x is not printable ASCII", s, s[i])
		}
	}
}
