package site

// Real pages are bigger than the shop's: a page of documentation is 30 to
// 100 KB of HTML with a link every few hundred bytes (measured on the Go
// and Python documentation: 200–400 bytes of markup per <a>). With
// Config.PageBytes set, each book page gets sections of prose up to that
// size, with links as dense as that. Every link in the prose leads where
// the page already leads — an anchor on the page itself, the home page,
// the book's category — so the crawl's URL set (Expected) is the same at
// any page size; only the work of fetching and parsing grows.

// appendProse appends sections to b until it is end bytes long (nothing,
// if it already is). The text depends only on the book's id.
func (c *catalogue) appendProse(b []byte, id, end int, o *origins) []byte {
	k := int(c.catOf[id-1])
	cat := c.cats[k].slug
	x := c.seed ^ uint64(id)*0x9e3779b97f4a7c15
	next := func(n int) int { // xorshift: fast, and the same text for the same id
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return int(x % uint64(n))
	}
	for section := 1; len(b) < end; section++ {
		b = append(b, "<h3 id=\"s"...)
		b = appendInt(b, section)
		b = append(b, "\">"...)
		b = appendTitle(b, adjectives[next(len(adjectives))]+"-"+nouns[next(len(nouns))])
		b = append(b, "</h3>\n<p>"...)
		for sentence := 0; sentence < 12 && len(b) < end; sentence++ {
			for w := 0; w < 8+next(8); w++ {
				if w > 0 {
					b = append(b, ' ')
				}
				b = append(b, nouns[next(len(nouns))]...)
			}
			b = append(b, ". "...)
			switch sentence % 3 { // a link about every 250 bytes
			case 0:
				b = append(b, "See <a href=\"#s"...)
				b = appendInt(b, 1+next(section))
				b = append(b, "\">above</a>. "...)
			case 1:
				b = append(b, "More in <a href=\""...)
				b = o.appendDir(b, c.listHost(k), "../category/", "/catalogue/category/")
				b = append(b, cat...)
				b = append(b, "/page-1.html\">this category</a>. "...)
			default:
				b = append(b, "Back to the <a href=\"../../\">shop</a>. "...)
			}
		}
		b = append(b, "</p>\n"...)
	}
	return b
}

func appendInt(b []byte, n int) []byte {
	var d [20]byte
	i := len(d)
	for {
		i--
		d[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return append(b, d[i:]...)
}
