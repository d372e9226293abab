package links_test

import (
	"fmt"
	"net/url"

	"loopkit/crawler/links"
)

func ExampleExtract() {
	page, _ := url.Parse("https://example.com/blog/")
	body := []byte(`<html><head><base href="/docs/"></head><body>
	<!-- <a href="/old">not a link: a comment</a> -->
	<script>var s = '<a href="/x">not a link: a script</a>';</script>
	<a href="intro.html">Intro</a>
	<a href="search?q=go&amp;page=2">Search</a>
	<a href="mailto:team@example.com">Mail us</a>
	<a href="INTRO.html#top">Intro again? No: the path is case-sensitive</a>
	<a href="./intro.html#top">Intro again</a>
	</body></html>`)
	found, err := links.Extract(body, page)
	if err != nil {
		panic(err)
	}
	for _, u := range found {
		fmt.Println(u)
	}
	// Output:
	// https://example.com/docs/intro.html
	// https://example.com/docs/search?q=go&page=2
	// https://example.com/docs/INTRO.html
}

func ExampleIsHTML() {
	fmt.Println(links.IsHTML("text/HTML; charset=utf-8"), links.IsHTML("application/xhtml+xml"), links.IsHTML("image/png"))
	// Output: true true false
}

func ExampleExtractCharset() {
	// The crawler decoded this windows-1252 page to UTF-8 before calling;
	// the links' queries go back out in windows-1252, as a browser sends them.
	page, _ := url.Parse("http://example.com/")
	body := []byte(`<a href="/café?q=café">menu</a>`)
	found, err := links.ExtractCharset(body, page, "windows-1252")
	if err != nil {
		panic(err)
	}
	fmt.Println(found[0])
	// Output: http://example.com/caf%C3%A9?q=caf%E9
}
