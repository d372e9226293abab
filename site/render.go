package site

import (
	"strconv"
	"strings"
)

// The two generated kinds of page, appended straight to a byte slice: no templates, no
// fmt, no bytes.Buffer method calls, so that rendering stays far below what net/http
// itself costs per request.
// Every link written here has its twin in graph.go (bookTargets, listTargets); the
// reference crawl in the tests parses these pages and checks that the twins agree.
// A link to a page on another host is written absolute by o.appendDir (hosts.go).

const (
	pageStart = "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>"
	titleEnd  = " | Book shop</title></head>\n<body>\n"
	pageEnd   = "</body>\n</html>\n"
)

// appendBook renders /catalogue/<slug>_<id>/index.html. Its links are relative to that
// directory: "../../" is the home page (of the book's host), "../<slug>_<id>/" a sibling book.
func (c *catalogue) appendBook(b []byte, id int, o *origins) []byte {
	start := len(b)
	cat := &c.cats[c.catOf[id-1]]
	b = append(b, pageStart...)
	b = c.appendBookTitle(b, id)
	b = append(b, titleEnd...)
	b = append(b, "<p><a href=\"../../\">Home</a> / <a href=\""...)
	b = o.appendDir(b, c.listHost(int(c.catOf[id-1])), "../category/", "/catalogue/category/")
	b = append(b, cat.slug...)
	b = append(b, "/page-1.html\">"...)
	b = appendTitle(b, genreOf(cat.slug))
	b = append(b, "</a></p>\n<h1>"...)
	b = c.appendBookTitle(b, id)
	b = append(b, "</h1>\n<p class=\"price\">£"...)
	p := c.pence(id)
	b = strconv.AppendInt(b, int64(p/100), 10)
	b = append(b, '.', byte('0'+p%100/10), byte('0'+p%10))
	b = append(b, "</p>\n<p>In stock. Rating: "...)
	b = append(b, ratings[p%len(ratings)]...)
	b = append(b, " of Five. <a href=\"#reviews\">Read the reviews</a>.</p>\n<h2>You may also like</h2>\n<ul>\n"...)
	ids, n := c.related(id)
	for _, r := range ids[:n] {
		b = append(b, "<li><a href=\""...)
		b = o.appendDir(b, c.bookHost(r), "../", "/catalogue/")
		b = c.appendBookDir(b, r)
		b = append(b, "/index.html\">"...)
		b = c.appendBookTitle(b, r)
		b = append(b, "</a></li>\n"...)
	}
	if id == 1 { // one dead link on the whole site's book pages
		b = append(b, "<li><a href=\"../out-of-print_0/index.html\">Out of print</a></li>\n"...)
	}
	b = append(b, "</ul>\n<h2 id=\"reviews\">Reviews</h2>\n<p>No reviews yet.</p>\n"...)
	b = c.appendProse(b, id, start+c.padTo-len(pageEnd), o)
	return append(b, pageEnd...)
}

// appendList renders page n (1-based) of category k, /catalogue/category/<slug>/page-<n>.html.
func (c *catalogue) appendList(b []byte, k, n int, o *origins) []byte {
	cat := &c.cats[k]
	last := c.listPages(k)
	b = append(b, pageStart...)
	b = appendTitle(b, genreOf(cat.slug))
	b = append(b, ", page "...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, titleEnd...)
	b = append(b, "<p><a href=\"../../../\">Home</a></p>\n<h1>"...)
	b = appendTitle(b, genreOf(cat.slug))
	b = append(b, "</h1>\n<ol>\n"...)
	from := (n - 1) * c.fanOut
	for _, id := range cat.books[from:min(from+c.fanOut, len(cat.books))] {
		b = append(b, "<li><a href=\""...)
		b = o.appendDir(b, c.bookHost(int(id)), "../../", "/catalogue/")
		b = c.appendBookDir(b, int(id))
		b = append(b, "/index.html\">"...)
		b = c.appendBookTitle(b, int(id))
		b = append(b, "</a></li>\n"...)
	}
	b = append(b, "</ol>\n<p>"...)
	if n > 1 {
		b = append(b, "<a href=\"./page-1.html\">first</a> <a href=\"page-"...)
		b = strconv.AppendInt(b, int64(n-1), 10)
		b = append(b, ".html\">previous</a> "...)
	}
	b = append(b, "page "...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, " of "...)
	b = strconv.AppendInt(b, int64(last), 10)
	if n < last {
		b = append(b, " <a href=\"page-"...)
		b = strconv.AppendInt(b, int64(n+1), 10)
		b = append(b, ".html\">next</a>"...)
	}
	b = append(b, "</p>\n"...)
	return append(b, pageEnd...)
}

// appendBookDir appends the directory of book id's page: "the-silent-river_7".
func (c *catalogue) appendBookDir(b []byte, id int) []byte {
	b = c.appendSlug(b, id)
	b = append(b, '_')
	return strconv.AppendInt(b, int64(id), 10)
}

// genreOf turns a category slug "historical-fiction_4" into "historical-fiction".
func genreOf(slug string) string {
	if i := strings.LastIndexByte(slug, '_'); i >= 0 {
		return slug[:i]
	}
	return slug
}

// appendTitle writes a slug as a title: "the-atlas-of-the-tide" → "The Atlas of the Tide".
// It takes the slug as a string or as the bytes appendSlug made.
func appendTitle[S string | []byte](b []byte, slug S) []byte {
	for i := 0; len(slug) > 0; i++ {
		end := 0
		for end < len(slug) && slug[end] != '-' {
			end++
		}
		word := slug[:end]
		if end < len(slug) {
			slug = slug[end+1:]
		} else {
			slug = slug[:0]
		}
		if i > 0 {
			b = append(b, ' ')
		}
		small := string(word) == "of" || string(word) == "the" || string(word) == "and" || string(word) == "a"
		if len(word) > 0 && (i == 0 || !small) && 'a' <= word[0] && word[0] <= 'z' {
			b = append(b, word[0]-'a'+'A')
			word = word[1:]
		}
		b = append(b, word...)
	}
	return b
}

func titleOf(slug string) string { return string(appendTitle(nil, slug)) }
