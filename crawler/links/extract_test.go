package links

import (
	"net/url"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

const page = "http://example.com/dir/page.html"

func TestExtract(t *testing.T) {
	tests := []struct {
		name string
		html string
		want []string
	}{
		{"relative and absolute links",
			`<a href="a.html">A</a> <a href="/b">B</a> <a href="https://other.org/c">C</a>`,
			[]string{"http://example.com/dir/a.html", "http://example.com/b", "https://other.org/c"}},
		{"every link-bearing element",
			`<link rel=stylesheet href=/s.css><map><area href=/area></map>
			 <frameset><frame src=/frame></frameset><iframe src="/iframe"></iframe>`,
			[]string{"http://example.com/s.css", "http://example.com/area",
				"http://example.com/frame", "http://example.com/iframe"}},
		{"other elements and attributes are not links",
			`<img src=/img.png><script src=/app.js></script><a name=top>anchor</a><div href=/div></div>`,
			nil},
		{"tag and attribute names are case-insensitive",
			`<A HREF="/upper">x</A>`,
			[]string{"http://example.com/upper"}},
		{"character references are decoded",
			`<a href="/search?q=a&amp;page=2&#38;x=&#x31;">x</a>`,
			[]string{"http://example.com/search?q=a&page=2&x=1"}},
		{"unquoted and single-quoted values",
			`<a href=/one>1</a><a href='/two'>2</a>`,
			[]string{"http://example.com/one", "http://example.com/two"}},
		{"the first href of a tag counts",
			`<a href="/first" href="/second">x</a>`,
			[]string{"http://example.com/first"}},
		{"a link to decode after an iframe whose src was decoded",
			`<iframe src="/f?a=1&amp;b=2"></iframe><a href="/g?c=3&amp;d=4">x</a>`,
			[]string{"http://example.com/f?a=1&b=2", "http://example.com/g?c=3&d=4"}},
		{"whitespace around an href is ignored",
			"<a href=\"\n\t /spaced \n\">x</a>",
			[]string{"http://example.com/spaced"}},

		// Normalization and de-duplication.
		{"links are normalized",
			`<a href="HTTP://Example.COM:80/x/../y#frag">x</a>`,
			[]string{"http://example.com/y"}},
		{"duplicates keep their first position",
			`<a href=/b>b</a><a href=/a>a</a><a href="/b#again">b</a><a href="/./a">a</a>`,
			[]string{"http://example.com/b", "http://example.com/a"}},
		{"a duplicate does not end the list",
			`<a href=/a>a</a><a href="/a#x">again</a><a href=/c>c</a>`,
			[]string{"http://example.com/a", "http://example.com/c"}},
		{"a fragment-only link is the page itself",
			`<a href="#top">top</a>`,
			[]string{page}},

		{"backslashes are slashes, as in a browser",
			`<a href="\foo\bar">x</a><a href="\\other.org\x?q=\">y</a>`,
			[]string{"http://example.com/foo/bar", "http://other.org/x?q=%5C"}},

		{"a stray percent is data, as in a browser",
			`<a href="/100%">x</a><a href="/a%zz?q=5%">y</a>`,
			[]string{"http://example.com/100%25", "http://example.com/a%25zz?q=5%25"}},

		// Links we cannot follow.
		{"other schemes are dropped",
			`<a href="mailto:me@example.com">m</a><a href="javascript:go()">j</a>
			 <a href="ftp://example.com/f">f</a><a href="data:text/plain,hi">d</a>
			 <a href="tel:+15555550100">t</a><a href="/ok">ok</a>`,
			[]string{"http://example.com/ok"}},
		{"malformed links are dropped",
			`<a href="http://[::1/">bad</a><a href="/ok">ok</a>`,
			[]string{"http://example.com/ok"}},

		// Things that look like links but are not.
		{"comments",
			`<!-- <a href="/commented">x</a> --><a href="/real">y</a>`,
			[]string{"http://example.com/real"}},
		{"script",
			`<script>document.write('<a href="/scripted">x</a>'); if (a<b) {}</script><a href="/real">y</a>`,
			[]string{"http://example.com/real"}},
		{"script with a fake end tag in a string",
			`<script>var s = "</scr" + "ipt><a href='/fake'>";</script><a href="/real">y</a>`,
			[]string{"http://example.com/real"}},
		{"style",
			`<style>a[href="/styled"] { color: red } /* <a href="/css"> */</style>`,
			nil},
		{"textarea and title are text",
			`<title><a href="/t">t</a></title><textarea><a href="/ta">x</a></textarea>`,
			nil},
		{"a processing instruction is a bogus comment, up to the first '>'",
			`<?xml-stylesheet <a href="/in-pi">?><a href="/real">y</a>`,
			[]string{"http://example.com/real"}},
		{"noscript is markup for a crawler that runs no scripts",
			`<noscript><a href="/no-js">plain version</a></noscript>`,
			[]string{"http://example.com/no-js"}},

		// <base href>.
		{"base href is honoured",
			`<head><base href="http://cdn.example.net/root/"></head><a href="x">x</a>`,
			[]string{"http://cdn.example.net/root/x"}},
		{"relative base href is resolved against the page",
			`<base href="../other/"><a href="x">x</a>`,
			[]string{"http://example.com/other/x"}},
		{"base href applies to links before it",
			`<a href="x">x</a><base href="/b/">`,
			[]string{"http://example.com/b/x"}},
		{"only the first base href counts",
			`<base href="/first/"><base href="/second/"><a href="x">x</a>`,
			[]string{"http://example.com/first/x"}},
		{"a base without href does not count",
			`<base target="_blank"><base href="/b/"><a href="x">x</a>`,
			[]string{"http://example.com/b/x"}},
		{"a javascript: base href is ignored",
			`<base href="javascript:void(0)"><a href="x">x</a>`,
			[]string{"http://example.com/dir/x"}},
		{"base href is not itself a link",
			`<base href="/b/">`,
			nil},
		{"a base href written like an earlier link still counts",
			`<a href="/b/">b</a><base href="/b/"><a href="x">x</a>`,
			[]string{"http://example.com/b/", "http://example.com/b/x"}},
		{"a link written like the base href is still a link",
			`<base href="/b/"><a href="/b/">b</a>`,
			[]string{"http://example.com/b/"}},

		// Broken HTML still yields its links.
		{"unclosed tags and stray brackets",
			`<div><p>1 < 2 > 0<a href=/a>a<p><a href=/b`,
			[]string{"http://example.com/a"}}, // "<a href=/b" never ends: not a tag
		{"empty document", ``, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := extractStrings(t, tt.html)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Extract(%s)\n got %q\nwant %q", tt.html, got, tt.want)
			}
		})
	}
}

func TestExtractNeedsPageURL(t *testing.T) {
	if _, err := Extract([]byte(`<a href=/x>`), nil); err == nil {
		t.Error("Extract with a nil page URL did not fail")
	}
	if _, err := Extract([]byte(`<a href=/x>`), mustParse(t, "/relative")); err == nil {
		t.Error("Extract with a relative page URL did not fail")
	}
}

// TestExtractLargePage feeds a 10 MiB page, half of it a single script, and
// checks that the links after it are found and that the allocations stay
// within a small multiple of the page size.
func TestExtractLargePage(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 10 MiB page")
	}
	var b strings.Builder
	b.WriteString("<html><body><script>")
	for b.Len() < 5<<20 {
		b.WriteString(`var x = "<a href='/not-a-link'>"; `)
	}
	b.WriteString("</script>")
	for b.Len() < 10<<20 {
		b.WriteString(`<p>Some text that is not a link at all, just words. <a href="/same">same</a></p>`)
	}
	b.WriteString(`<a href="/last">last</a></body></html>`)
	body := []byte(b.String())

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := Extract(body, mustParse(t, page))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"http://example.com/same", "http://example.com/last"}
	if s := urlStrings(got); !reflect.DeepEqual(s, want) {
		t.Errorf("got %q, want %q", s, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(len(body)) {
		t.Errorf("allocated %d MiB for a %d MiB page", alloc>>20, len(body)>>20)
	}
}

func extractStrings(t *testing.T, doc string) []string {
	t.Helper()
	links, err := Extract([]byte(doc), mustParse(t, page))
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	return urlStrings(links)
}

func urlStrings(us []*url.URL) []string {
	var s []string
	for _, u := range us {
		s = append(s, u.String())
	}
	return s
}

func mustParse(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestIsHTML(t *testing.T) {
	tests := []struct {
		mediaType string
		want      bool
	}{
		{"text/html", true},
		{"TEXT/HTML", true},
		{"application/xhtml+xml", true},
		{"application/XHTML+XML", true},
		{"application/xml", true},
		{"text/html; charset=utf-8", true},
		{" text/html ;charset=ISO-8859-1", true},
		{"text/plain", false},
		{"text/xml", false},
		{"application/json", false},
		{"image/png", false},
		{"text/htmlx", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsHTML(tt.mediaType); got != tt.want {
			t.Errorf("IsHTML(%q) = %v, want %v", tt.mediaType, got, tt.want)
		}
	}
}
