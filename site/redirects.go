package site

import (
	"net/http"
	"strconv"
	"strings"
)

// A redirect answers with a status and a Location. target is where it leads, resolved
// and normalized as in piece.target; Location is spelled in several ways on purpose
// (absolute URL, absolute path, relative path), since clients must resolve all three.
type redirect struct {
	status   int
	location string
	target   string
}

// redirects are the fixed redirects, all on host 0.
func (c *catalogue) redirects() map[string]redirect {
	pick := c.featured(3)
	staffPick, pickHost := c.bookPath(pick), c.bookHost(pick)
	// The chain's absolute URL names the client's host, or the other host's origin.
	middle := "http://" + hostPlaceholder + staffPick
	if pickHost != 0 {
		middle = originPlaceholder + staffPick
	}
	return map[string]redirect{
		// A chain of two hops, the second to an absolute URL.
		"/chain/start":  {http.StatusFound, "/chain/middle", "/chain/middle"},
		"/chain/middle": {http.StatusMovedPermanently, middle, on(pickHost, staffPick)},
		// A loop of two URLs: a crawler fetches each once, then sees it has been there.
		"/loop/a": {http.StatusFound, "/loop/b", "/loop/b"},
		"/loop/b": {http.StatusTemporaryRedirect, "a", "/loop/a"},
		// Into the robots.txt section: a redirect target must pass the robots check too.
		"/go/private": {http.StatusFound, "/private/members.html", "/private/members.html"},
		// Off the site: a strict crawler records the redirect and goes no further.
		"/out": {http.StatusFound, "http://www.example.invalid/shop/", "http://www.example.invalid/shop/"},
		// To a page that is gone.
		"/retired": {http.StatusMovedPermanently, "/gone.html", "/gone.html"},
	}
}

// bookRedirect answers /old/<id> (301, an absolute path) and /moved/<id> (308, a path
// relative to /moved/), both leading to the page of book id, on the book's own host.
func (c *catalogue) bookRedirect(p string) (rd redirect, id int, ok bool) {
	if rest, ok := strings.CutPrefix(p, "/old/"); ok {
		if id, ok := parseNumber(rest); ok && id <= c.books() {
			return redirect{http.StatusMovedPermanently, c.bookPath(id), on(c.bookHost(id), c.bookPath(id))}, id, true
		}
	}
	if rest, ok := strings.CutPrefix(p, "/moved/"); ok {
		if id, ok := parseNumber(rest); ok && id <= c.books() {
			relative := "../catalogue/" + c.slug(id) + "_" + strconv.Itoa(id) + "/index.html"
			return redirect{http.StatusPermanentRedirect, relative, on(c.bookHost(id), c.bookPath(id))}, id, true
		}
	}
	return redirect{}, 0, false
}
