package links

import (
	"testing"

	"loopkit/crawler/urlnorm"
)

// FuzzExtract feeds arbitrary bytes to Extract. It must not panic, and what
// it returns must be crawlable (with a host name and no userinfo),
// normalized (normalizing again changes nothing) and free of duplicates.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		`<a href="/a">a</a><base href="../b/"><a href=c>`,
		`<script><a href="/x"></script><!-- <a href=/y> --><noscript><a href=/z></noscript>`,
		`<A HREF=" javascript:x ">`,
		`<area href="HTTP://EXAMPLE.COM:80/%7e?%3a#f"><iframe src="//other.org">`,
		"<a href=\"\x00\xff%zz\">",
		"<a href=//.>", // once resolved to "http:"
		`<a href="\\u:p@BÜCHER.de\x%zz?q=\&amp;r=%">`,
		`<a href=//xn--zz.example/><a href="//a%25b/">`,
	} {
		f.Add([]byte(s))
	}
	base := mustParse(f, "http://example.com/dir/page.html")
	f.Fuzz(func(t *testing.T, body []byte) {
		found, err := Extract(body, base)
		if err != nil {
			t.Fatal(err)
		}
		seen := make(map[string]bool)
		for _, u := range found {
			s := u.String()
			if !urlnorm.Crawlable(u) || u.Hostname() == "" || u.User != nil {
				t.Errorf("not crawlable, no host name, or userinfo: %q", s)
			}
			if n, err := urlnorm.Normalize(s); err != nil || n != s {
				t.Errorf("not normalized: %q → %q, %v", s, n, err)
			}
			if seen[s] {
				t.Errorf("duplicate: %q", s)
			}
			seen[s] = true
		}
	})
}
