package links

import "strings"

// IsHTML reports whether a response with this media type is worth
// extracting links from: text/html, application/xhtml+xml or
// application/xml. The comparison ignores case and any parameters
// ("text/HTML; charset=utf-8" is HTML), because media types are
// case-insensitive (RFC 9110 §8.3.1); the original crawler compared them
// case-sensitively and never parsed XHTML.
//
// XHTML and XML pages go through the same HTML tokenizer, which is lenient
// where an XML parser would reject the document. For finding links that
// leniency is a feature: a page with one XML error still has its links.
func IsHTML(mediaType string) bool {
	if i := strings.IndexByte(mediaType, ';'); i >= 0 {
		mediaType = mediaType[:i]
	}
	mediaType = strings.TrimSpace(mediaType)
	for _, t := range []string{"text/html", "application/xhtml+xml", "application/xml"} {
		if strings.EqualFold(mediaType, t) {
			return true
		}
	}
	return false
}
