package urlnorm_test

import (
	"fmt"
	"net/url"

	"loopkit/crawler/urlnorm"
)

func ExampleNormalize() {
	s, err := urlnorm.Normalize("HTTP://www.Example.COM:80/a/./b/../c/%7euser?q=%3a#frag")
	if err != nil {
		panic(err)
	}
	fmt.Println(s)
	// Output: http://www.example.com/a/c/~user?q=%3A
}

func ExampleResolve() {
	page, _ := url.Parse("https://example.com/blog/post.html")
	for _, href := range []string{"../about/", " other.html#comments ", "mailto:me@example.com"} {
		u, err := urlnorm.Resolve(page, href)
		if err != nil {
			fmt.Println("skip:", err)
			continue
		}
		fmt.Println(u)
	}
	// Output:
	// https://example.com/about/
	// https://example.com/blog/other.html
	// skip: urlnorm: not an http or https URL: scheme "mailto"
}

func ExampleScope() {
	root, _ := url.Parse("http://bbc.co.uk/")
	strict := urlnorm.NewScope([]*url.URL{root}, false)
	lenient := urlnorm.NewScope([]*url.URL{root}, true)
	for _, s := range []string{"https://www.bbc.co.uk/", "http://news.bbc.co.uk/", "http://evil.co.uk/"} {
		u, _ := url.Parse(s)
		fmt.Printf("%-24s strict=%-5v lenient=%v\n", s, strict.Allowed(u), lenient.Allowed(u))
	}
	// Output:
	// https://www.bbc.co.uk/   strict=true  lenient=true
	// http://news.bbc.co.uk/   strict=false lenient=true
	// http://evil.co.uk/       strict=false lenient=false
}

func ExampleSeen() {
	var seen urlnorm.Seen
	for _, href := range []string{"/a", "/b", "/./a", "/a#top"} {
		u, _ := urlnorm.Normalize("http://example.com" + href)
		fmt.Println(u, seen.Add(u))
	}
	fmt.Println(seen.Len(), "distinct")
	// Output:
	// http://example.com/a true
	// http://example.com/b true
	// http://example.com/a false
	// http://example.com/a false
	// 2 distinct
}
