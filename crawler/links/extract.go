package links

import (
	"errors"
	"net/url"

	"golang.org/x/text/encoding"

	"loopkit/crawler/urlnorm"
)

// Extract returns the crawlable links of an HTML page, resolved and
// normalized with crawler/urlnorm, each once, in the order they first
// appear.
//
// body must already be decoded to UTF-8: the crawler knows the charset
// from the Content-Type header or a <meta> tag and decodes before calling
// (golang.org/x/net/html/charset does that). Invalid UTF-8 does no harm; its
// bytes end up percent-escaped. Extract treats the page as UTF-8 through
// and through; for a page sent in another charset, use [ExtractCharset].
//
// pageURL is the URL the page was fetched from, after redirects. If the
// page has a <base href>, the first one is resolved against pageURL and
// every link, even one before it, is resolved against the result, as in a
// browser. A <base href> that is not http or https is ignored.
//
// Links come from href on <a>, <area> and <link>, and src on <frame> and
// <iframe>. rel="nofollow" is not honoured: it asks search engines not to
// pass ranking along a link, not crawlers to stay away (robots.txt does
// that). <link> includes stylesheets and icons; the crawler sees from their
// Content-Type that they are not pages.
//
// Links inside comments, <script>, <style>, <textarea> and <title> are not
// links, and are not returned. <noscript> content is parsed as markup,
// because the crawler runs no scripts: it is the page a crawler sees.
//
// Links that cannot be followed (mailto:, javascript:, data:, malformed
// URLs...) are dropped silently; an error is returned only if the
// tokenizer fails, which for an in-memory body it does not.
//
// Memory: besides the result, Extract holds the distinct href strings of
// the page (and, for the rare value with a character reference to
// decode, a tokenizer's buffer the size of its tag), so its extra memory
// is at most proportional to the body; the crawler's limit on body size
// bounds it.
func Extract(body []byte, pageURL *url.URL) ([]*url.URL, error) {
	return extract(body, pageURL, nil)
}

// ExtractCharset is [Extract] for a page that was sent in the charset
// charsetLabel ("windows-1252", "Shift_JIS", "iso-8859-1"...: any label of
// the WHATWG Encoding Standard) and that the caller has decoded from it to
// UTF-8. The only difference is in the links' queries, which a browser
// sends in the page's charset: href="?q=é" on a windows-1252 page asks
// for "?q=%E9", not "?q=%C3%A9" (see [urlnorm.ResolveIn]). An empty or
// unknown label means UTF-8, as it does for the decoding.
func ExtractCharset(body []byte, pageURL *url.URL, charsetLabel string) ([]*url.URL, error) {
	return extract(body, pageURL, queryEncoding(charsetLabel))
}

func extract(body []byte, pageURL *url.URL, enc encoding.Encoding) ([]*url.URL, error) {
	if pageURL == nil || !pageURL.IsAbs() {
		return nil, errors.New("links: Extract needs the absolute URL of the page")
	}
	refs, baseHref, err := scan(body)
	if err != nil {
		return nil, err
	}
	base := pageURL
	if baseHref != nil {
		if b, err := urlnorm.ResolveIn(pageURL, *baseHref, enc); err == nil {
			base = b
		}
	}
	out := make([]*url.URL, 0, len(refs))
	seen := make(map[string]struct{}, len(refs))
	for _, ref := range refs {
		u, err := urlnorm.ResolveIn(base, ref, enc)
		if err != nil {
			continue // not for us: another scheme, or malformed
		}
		s := u.String()
		if _, dup := seen[s]; dup {
			continue
		}
		seen[s] = struct{}{}
		out = append(out, u)
	}
	return out, nil
}
