package site

import (
	"strconv"
	"strings"
)

// catalogue is the generated part of the shop: the books and the categories that list
// them. Only the list order is stored, 8 bytes a book (80 MB for ten million); slugs,
// titles, prices and related books are computed from the seed when a page is rendered,
// so that a site of millions of pages costs little more memory than a small one.
type catalogue struct {
	seed   uint64
	fanOut int
	padTo  int     // PageBytes: book pages are padded with prose to this size
	hosts  int     // Config.Hosts: how many hosts share the pages (hosts.go)
	nBooks int     // how many books; ids run from 1, so "_0" is never a book
	catOf  []int32 // catOf[id-1] is the index of the category that lists book id
	cats   []category
}

type category struct {
	slug  string  // "travel_3": the genre, then the category's number, as books.toscrape.com spells them
	books []int32 // the ids it lists, in order
}

// fixedPages is how many HTML pages the hand-written part of the site has besides the
// home page (a test keeps it honest); Config.Pages counts them.
const fixedPages = 29

func newCatalogue(cfg Config) *catalogue {
	// Pages ≈ 1 (home) + fixedPages + books + books/FanOut (list pages).
	books := (cfg.Pages - 1 - fixedPages) * cfg.FanOut / (cfg.FanOut + 1)
	books = max(books, 1)
	c := &catalogue{
		seed:   uint64(cfg.Seed),
		fanOut: cfg.FanOut,
		padTo:  cfg.PageBytes,
		hosts:  max(cfg.Hosts, 1),
		nBooks: books,
		catOf:  make([]int32, books),
	}

	// Shuffle the ids (Fisher–Yates), then cut the order into categories of
	// FanOut*Depth books: each category then has Depth list pages (the last may have fewer).
	order := make([]int32, books)
	for i := range order {
		order[i] = int32(i + 1)
	}
	for i := books - 1; i > 0; i-- {
		j := int(draw(c.seed, forShuffle, i, 0) % uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	perCategory := cfg.FanOut * cfg.Depth
	rotate := int(draw(c.seed, forGenre, 0, 0) % uint64(len(genres)))
	for start := 0; start < books; start += perCategory {
		k := len(c.cats)
		genre := genres[(k+rotate)%len(genres)]
		cat := category{slug: genre + "_" + strconv.Itoa(k+1), books: order[start:min(start+perCategory, books)]}
		for _, id := range cat.books {
			c.catOf[id-1] = int32(k)
		}
		c.cats = append(c.cats, cat)
	}
	return c
}

// appendSlug appends the name of book id: "the-silent-river", "paper-lantern",
// "the-atlas-of-the-tide". It is drawn from the seed each time, never stored: the
// render path appends it straight into the page, with no string made.
func (c *catalogue) appendSlug(b []byte, id int) []byte {
	h := draw(c.seed, forSlug, id, 0)
	adj := adjectives[h%uint64(len(adjectives))]
	noun := nouns[(h>>8)%uint64(len(nouns))]
	other := nouns[(h>>16)%uint64(len(nouns))]
	switch (h >> 24) % 3 {
	case 0:
		return append(append(append(append(b, "the-"...), adj...), '-'), noun...)
	case 1:
		return append(append(append(b, adj...), '-'), noun...)
	default:
		return append(append(append(append(b, "the-"...), noun...), "-of-the-"...), other...)
	}
}

// maxSlug is longer than any slug: "the-" + the longest noun + "-of-the-" + it again.
const maxSlug = 48

// slug is book id's name as a string, for the paths that are not rendered per request.
func (c *catalogue) slug(id int) string {
	var buf [maxSlug]byte
	return string(c.appendSlug(buf[:0], id))
}

// isSlug says whether s is book id's name, without making a string of it.
func (c *catalogue) isSlug(id int, s string) bool {
	var buf [maxSlug]byte
	return string(c.appendSlug(buf[:0], id)) == s // the compiler compares without converting
}

// appendBookTitle appends book id's title: its slug, written as a title.
func (c *catalogue) appendBookTitle(b []byte, id int) []byte {
	var buf [maxSlug]byte
	return appendTitle(b, c.appendSlug(buf[:0], id))
}

func (c *catalogue) books() int { return c.nBooks }

// listPages is the number of list pages of category k.
func (c *catalogue) listPages(k int) int {
	return (len(c.cats[k].books) + c.fanOut - 1) / c.fanOut
}

// related returns the 2 or 3 books that book id recommends. They are drawn at random,
// so recommendations form cycles, as on a real shop.
func (c *catalogue) related(id int) (ids [3]int, n int) {
	books := c.books()
	if books < 2 {
		return ids, 0
	}
	want := 2 + int(draw(c.seed, forRelated, id, 0)%2)
	for k := 1; k <= want; k++ {
		r := 1 + int(draw(c.seed, forRelated, id, k)%uint64(books-1))
		if r >= id { // skip the book itself
			r++
		}
		dup := false
		for _, prev := range ids[:n] {
			dup = dup || prev == r
		}
		if !dup {
			ids[n] = r
			n++
		}
	}
	return ids, n
}

// featured picks the i-th book the home page features (through redirects).
func (c *catalogue) featured(i int) int {
	return 1 + int(draw(c.seed, forFeatured, i, 0)%uint64(c.books()))
}

// pence is the price of book id: £10.00 to £59.99.
func (c *catalogue) pence(id int) int {
	return 1000 + int(draw(c.seed, forPrice, id, 0)%5000)
}

// bookPath and listPath spell the canonical paths; the graph uses them, the hot render
// path writes the same shapes straight into its buffer.
func (c *catalogue) bookPath(id int) string {
	return "/catalogue/" + c.slug(id) + "_" + strconv.Itoa(id) + "/index.html"
}

func (c *catalogue) listPath(k, n int) string {
	return "/catalogue/category/" + c.cats[k].slug + "/page-" + strconv.Itoa(n) + ".html"
}

// parseBook recognizes "/catalogue/<slug>_<id>/index.html" with the right slug for id.
func (c *catalogue) parseBook(p string) (id int, ok bool) {
	rest, ok := strings.CutPrefix(p, "/catalogue/")
	if !ok {
		return 0, false
	}
	if rest, ok = strings.CutSuffix(rest, "/index.html"); !ok {
		return 0, false
	}
	i := strings.LastIndexByte(rest, '_')
	if i < 0 {
		return 0, false
	}
	id, ok = parseNumber(rest[i+1:])
	if !ok || id > c.books() || !c.isSlug(id, rest[:i]) {
		return 0, false
	}
	return id, true
}

// parseList recognizes "/catalogue/category/<slug>_<k>/page-<n>.html".
func (c *catalogue) parseList(p string) (k, n int, ok bool) {
	rest, ok := strings.CutPrefix(p, "/catalogue/category/")
	if !ok {
		return 0, 0, false
	}
	slug, page, ok := strings.Cut(rest, "/")
	if !ok {
		return 0, 0, false
	}
	page, ok = strings.CutPrefix(page, "page-")
	if !ok {
		return 0, 0, false
	}
	if page, ok = strings.CutSuffix(page, ".html"); !ok {
		return 0, 0, false
	}
	i := strings.LastIndexByte(slug, '_')
	if i < 0 {
		return 0, 0, false
	}
	number, ok1 := parseNumber(slug[i+1:])
	n, ok2 := parseNumber(page)
	if !ok1 || !ok2 || number > len(c.cats) || slug != c.cats[number-1].slug || n > c.listPages(number-1) {
		return 0, 0, false
	}
	return number - 1, n, true
}

// parseNumber accepts only the canonical spelling of a positive number ("7", not "07"
// or "+7"), so that every page has exactly one URL.
func parseNumber(s string) (int, bool) {
	if s == "" || len(s) > 9 || s[0] == '0' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}
