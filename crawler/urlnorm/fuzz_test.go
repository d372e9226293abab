package urlnorm

import (
	"net/url"
	"testing"
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
		"http://./",  // issue 9: became "http:///"
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

// checkFetchable fails t unless u is what Resolve and Normalize promise for
// http(s): crawlable, with a host name and no userinfo.
func checkFetchable(t *testing.T, u *url.URL) {
	t.Helper()
	if !Crawlable(u) || u.Hostname() == "" || u.User != nil {
		t.Fatalf("%q: crawlable %v, host name %q, userinfo %v",
			u, Crawlable(u), u.Hostname(), u.User != nil)
	}
}
