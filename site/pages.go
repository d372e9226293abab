package site

import (
	"strconv"
)

// The hand-written pages. Each link carries its target (see piece), and the pages that
// trip crawlers up each lead to a page of their own, so that a crawler which gets one
// wrong shows it as one missing URL (and usually one extra, wrong, URL).

func (c *catalogue) pages() map[string]*page {
	pages := map[string]*page{
		"/":           c.homePage(),
		"/about.html": aboutPage(),

		// robots.txt disallows /private/ but allows /private/open.html.
		"/private/index.html": htmlPage("Staff area",
			markup("<h1>Staff area</h1>\n<p>robots.txt asks crawlers to keep out of /private/.</p>\n<ul>\n"),
			item("members.html", "Members", "/private/members.html"),
			item("ledger.html", "Ledger", "/private/ledger.html"),
			item("/", "Home", "/"),
			markup("</ul>\n")),
		"/private/members.html": backPage("Members", "Also reached by the redirect /go/private.", "/"),
		"/private/ledger.html":  backPage("Ledger", "Only linked from inside /private/.", "/"),
		"/private/open.html": htmlPage("Opening hours",
			markup("<h1>Opening hours</h1>\n<p>robots.txt allows this page with a longer, more specific rule.</p>\n<ul>\n"),
			item("index.html", "Staff area", "/private/index.html"),
			item("/", "Home", "/"),
			markup("</ul>\n")),

		"/extras/upper-ct.html": newPage("TEXT/HTML; Charset=UTF-8", utf8Text, document("Upper-case Content-Type",
			markup("<h1>Upper-case Content-Type</h1>\n<p>Media types are case-insensitive: this is HTML. "),
			anchor("<a href=\"from-upper-ct.html\">Onwards</a>", "/extras/from-upper-ct.html"),
			markup("</p>\n"))),
		"/extras/page.xhtml": newPage("application/xhtml+xml", utf8Text, []piece{
			markup("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n" +
				"<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n" +
				"<head><title>XHTML | Book shop</title></head>\n<body>\n<h1>XHTML</h1>\n<p>XHTML is HTML too. "),
			anchor("<a href=\"from-xhtml.html\">Onwards</a>", "/extras/from-xhtml.html"),
			markup("</p>\n" + pageEnd)}),
		// Resolving against the page instead of <base> gives /extras/based.html, a trap.
		"/extras/base.html": newPage(ctHTML[0], utf8Text, []piece{
			markup("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><base href=\"/shelf/\">" +
				"<title>Base | Book shop</title></head>\n<body>\n<h1>A base element</h1>\n" +
				"<p>Relative links on this page resolve against /shelf/, not /extras/. "),
			anchor("<a href=\"based.html\">The shelf</a>", "/shelf/based.html"),
			markup("</p>\n" + pageEnd)}),
		"/shelf/based.html": backPage("The shelf", "Reached through a base element.", "/about.html"),

		// Three encodings, each declared a different way, each linking to a URL with a
		// non-ASCII character: only a crawler that decodes the page right finds it.
		"/charset/latin1.html": newPage("text/html; charset=ISO-8859-1", latin1Text, []piece{
			markup("<!DOCTYPE html>\n<html lang=\"fr\">\n<head><title>Café littéraire | Book shop</title></head>\n<body>\n" +
				"<h1>Café littéraire</h1>\n<p>Cette page est en ISO-8859-1 : seul l'en-tête Content-Type le dit, " +
				"et « é » y tient en un octet. "),
			anchor("<a href=\"café.html\">Notre café</a>", "/charset/café.html"),
			markup("</p>\n" + pageEnd)}),
		"/charset/windows-1252.html": newPage("text/html", windows1252Text, []piece{
			markup("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"windows-1252\"><title>Prices in € | Book shop</title></head>\n<body>\n" +
				"<h1>Prices in €</h1>\n<p>This page is windows-1252 — only its meta element says so — " +
				"where “curly quotes” and the euro sign are one byte each. "),
			anchor("<a href=\"euro-€.html\">Euro prices…</a>", "/charset/euro-€.html"),
			markup("</p>\n" + pageEnd)}),
		"/charset/bom.html": newPage("text/html", utf8BOMText, []piece{
			markup("<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>Naïve | Book shop</title></head>\n<body>\n" +
				"<h1>A naïve page</h1>\n<p>This page starts with a UTF-8 byte order mark and declares its encoding nowhere else. "),
			anchor("<a href=\"naïve.html\">Naïveté</a>", "/charset/naïve.html"),
			markup("</p>\n" + pageEnd)}),
		"/charset/café.html":   backPage("Le café", "Linked from a page in ISO-8859-1.", "/about.html"),
		"/charset/euro-€.html": backPage("Euro prices", "Linked from a page in windows-1252.", "/about.html"),
		"/charset/naïve.html":  backPage("Naïveté", "Linked from a page that starts with a byte order mark.", "/about.html"),
	}
	for _, name := range []string{
		"relative", "dot", "parent", "dotted", "upper", "scheme-relative", "spaced", "fragment",
		"single-quoted", "unquoted", "upper-tag", "from-upper-ct", "from-xhtml",
	} {
		pages["/extras/"+name+".html"] = backPage("Found: "+name, "Each tricky link on the About page leads to a page of its own.", "/about.html")
	}
	return pages
}

// backPage is a page with a heading, a sentence and one link back.
func backPage(title, text, back string) *page {
	return htmlPage(title,
		markup("<h1>"+title+"</h1>\n<p>"+text+"</p>\n<p>"),
		anchor("<a href=\""+back+"\">Back</a>", back),
		markup("</p>\n"))
}

// homeCategories is the most categories the home page lists: a site of a million
// pages has 16,667 of them at the default fan-out and depth. A bigger site (over more
// hosts: config.go) lists host 0's alone, as every other host's front page lists its
// own, and the home page stays a page a crawler reads (a few MB, not tens).
var homeCategories = 20_000 // a variable only so that a test can make a small site pass it

// homePage links every category (or host 0's: homeCategories), a few books through
// redirects, the tricky corners of the site, the other hosts' front pages, and two traps
// a crawler must not fall into.
func (c *catalogue) homePage() *page {
	body := []piece{markup("<h1 id=\"top\">Book shop</h1>\n<p>" + strconv.Itoa(c.books()) + " books in " +
		strconv.Itoa(len(c.cats)) + " categories.</p>\n<h2>Categories</h2>\n<ul>\n")}
	step := 1
	if len(c.cats) > homeCategories {
		step = c.hosts // listHost gives host 0 every hosts-th category
	}
	for k := 0; k < len(c.cats); k += step {
		cat := c.cats[k]
		body = append(body, crossItem(0, c.listHost(k), "catalogue/category/"+cat.slug+"/page-1.html",
			titleOf(genreOf(cat.slug)), c.listPath(k, 1)))
	}
	old1, old2, moved := c.featured(0), c.featured(1), c.featured(2)
	body = append(body,
		markup("</ul>\n<h2>Featured</h2>\n<ul>\n"),
		crossItem(0, c.bookHost(old1), "/old/"+strconv.Itoa(old1), titleOf(c.slug(old1)), "/old/"+strconv.Itoa(old1)),
		crossItem(0, c.bookHost(old2), "/old/"+strconv.Itoa(old2), titleOf(c.slug(old2)), "/old/"+strconv.Itoa(old2)),
		crossItem(0, c.bookHost(moved), "/moved/"+strconv.Itoa(moved), titleOf(c.slug(moved)), "/moved/"+strconv.Itoa(moved)),
		item("/chain/start", "Staff pick", "/chain/start"),
		markup("</ul>\n<h2>Around the shop</h2>\n<ul>\n"),
		item("/about.html", "About this shop", "/about.html"),
		item("/private/index.html", "Staff area", "/private/index.html"),
		item("/private/open.html", "Opening hours", "/private/open.html"),
		item("/go/private", "Members", "/go/private"),
		item("/loop/a", "Gift cards", "/loop/a"),
		item("/out", "Our other shop", "/out"),
		item("/retired", "The old catalogue", "/retired"),
		item("/gone.html", "Summer sale (over)", "/gone.html"),
		markup("</ul>\n"),
	)
	if c.hosts > 1 {
		body = append(body, markup("<h2>Branches</h2>\n<ul>\n"))
		for h := 1; h < c.hosts; h++ {
			body = append(body, crossItem(0, h, "/", "Branch "+strconv.Itoa(h), "/"))
		}
		body = append(body, markup("</ul>\n"))
	}
	body = append(body,
		// Links in comments and scripts are not links. Both URLs are traps: the server
		// counts every request for them (Stats.TrapHits).
		markup("<!-- retired: <a href=\"/trap/comment.html\">the old catalogue</a> -->\n"),
		markup("<script>document.write('<a href=\"/trap/script.html\">New arrivals</a>');</script>\n"),
	)
	return htmlPage("Home", body...)
}

// frontPage is "/" on host h ≥ 1 of a site of several hosts: the categories it holds,
// and the way to the home page on host 0.
func (c *catalogue) frontPage(h int) *page {
	name := "Branch " + strconv.Itoa(h)
	body := []piece{
		markup("<h1>" + name + "</h1>\n<p>One of the shop's " + strconv.Itoa(c.hosts) + " hosts. "),
		anchor("<a href=\""+originPlaceholder+"/\">The shop's home page</a>", "/"),
		markup(" lists everything.</p>\n<h2>Categories kept here</h2>\n<ul>\n"),
	}
	for k := h; k < len(c.cats); k += c.hosts { // the categories listHost gives to h
		slug := c.cats[k].slug
		body = append(body, item("catalogue/category/"+slug+"/page-1.html", titleOf(genreOf(slug)), on(h, c.listPath(k, 1))))
	}
	return htmlPage(name, append(body, markup("</ul>\n"))...)
}

// fronts returns the front pages of hosts 1 to Hosts-1, at their index (nil at 0).
func (c *catalogue) fronts() []*page {
	out := make([]*page, c.hosts)
	for h := 1; h < c.hosts; h++ {
		out[h] = c.frontPage(h)
	}
	return out
}

// crossItem is item for a link from a page on host from to path on host to: relative
// (href) within a host, an absolute URL to another host.
func crossItem(from, to int, href, label, path string) piece {
	if from != to {
		href = originPlaceholder + path
	}
	return item(href, label, on(to, path))
}

// aboutPage gathers the links that are hard to read right. It is rendered per request,
// because two links spell out the host the client asked for.
func aboutPage() *page {
	return htmlPage("About",
		markup("<h1 id=\"top\">About this shop</h1>\n<p>The links that trip crawlers up, each to a page of its own.</p>\n"+
			"<h2>Link syntax</h2>\n<ul>\n"),
		item("extras/relative.html", "A relative path", "/extras/relative.html"),
		item("./extras/dot.html", "A path starting with ./", "/extras/dot.html"),
		item("extras/sub/../parent.html", "A path going up with ../", "/extras/parent.html"),
		item("/extras/./dots/../dotted.html", "Dot segments in an absolute path", "/extras/dotted.html"),
		item("HTTP://"+upperHostPlaceholder+"/extras/upper.html", "Upper-case scheme and host, port written out", "/extras/upper.html"),
		item("//"+hostPlaceholder+"/extras/scheme-relative.html", "A scheme-relative URL", "/extras/scheme-relative.html"),
		item("  /extras/spaced.html\n", "White space around the URL", "/extras/spaced.html"),
		item("/extras/fragment.html#part-2", "A fragment", "/extras/fragment.html"),
		anchor("<li><a href='/extras/single-quoted.html'>Single quotes</a></li>\n", "/extras/single-quoted.html"),
		anchor("<li><a class=plain href=/extras/unquoted.html>No quotes</a></li>\n", "/extras/unquoted.html"),
		anchor("<li><A HREF=\"/extras/upper-tag.html\">Upper-case tag</A></li>\n", "/extras/upper-tag.html"),
		item("/search?q=poetry&amp;page=2", "An escaped &amp;amp; in a query", "/search?q=poetry&page=2"),
		item("#top", "The top of this page", "/about.html"),
		item("", "This page again", "/about.html"),
		markup("</ul>\n<h2>Not for a strict web crawler</h2>\n<ul>\n"),
		item("mailto:orders@shop.example.invalid", "Write to us", ""),
		item("ftp://ftp.example.invalid/catalogue.txt", "The catalogue over FTP", ""),
		item("javascript:window.location='/trap/javascript.html'", "Open the basket", ""),
		item("http://WWW.EXAMPLE.INVALID:80/offsite.html", "Another site", "http://www.example.invalid/offsite.html"),
		markup("</ul>\n<h2>Encodings</h2>\n<ul>\n"),
		item("charset/latin1.html", "ISO-8859-1, declared in the Content-Type header", "/charset/latin1.html"),
		item("charset/windows-1252.html", "windows-1252, declared in a meta element", "/charset/windows-1252.html"),
		item("charset/bom.html", "UTF-8 with a byte order mark", "/charset/bom.html"),
		markup("</ul>\n<h2>Content types</h2>\n<ul>\n"),
		item("extras/upper-ct.html", "HTML with an upper-case Content-Type", "/extras/upper-ct.html"),
		item("extras/page.xhtml", "XHTML", "/extras/page.xhtml"),
		item("extras/base.html", "A page with a base element", "/extras/base.html"),
		item("static/style.css", "A style sheet", "/static/style.css"),
		item("static/cover.png", "A cover image", "/static/cover.png"),
		item("static/notes.txt", "Plain text", "/static/notes.txt"),
		item("static/catalogue.json", "JSON", "/static/catalogue.json"),
		item("static/plain.html", "HTML source served as text/plain", "/static/plain.html"),
		markup("</ul>\n<p>"),
		anchor("<a href=\"/\">Home</a>", "/"),
		markup("</p>\n"),
	)
}
