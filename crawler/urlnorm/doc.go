// Package urlnorm turns the many spellings of a URL into one, decides which
// URLs the crawler may follow, and remembers which ones it has already seen.
//
// crawler/urlnorm sits under the crawler: pure string work on net/url
// values, with no I/O. The crawler calls it at three moments:
//
//   - when a link is found: [Resolve] turns an href into an absolute,
//     normalized URL, or refuses it (mailto:, javascript:, ...), reading
//     it as a browser does; [ResolveIn] also encodes its query in the
//     charset of its page, as a browser does;
//   - before a URL is queued: [Scope.Allowed] says whether it belongs to the
//     site being crawled (the --strict and --lenient modes of the original);
//   - when it is queued: [Seen.Add] says whether it is new.
//
// Normalization follows RFC 3986 §6.2.2 (syntax-based) and the parts of
// §6.2.3 (scheme-based) that HTTP licenses: the result names the same
// resource as the input, so two links that differ only in spelling are
// fetched once. The original 500-lines crawler compared URLs as raw strings
// and fetched /a, /a#top and /./a three times.
//
// Credentials never get through: http and https URLs lose their userinfo
// ("http://u:p@host/x" is "http://host/x"), and error messages leave it
// out, so neither the seen set nor anything the crawler writes holds a
// password. RFC 3986 §3.2.1 deprecates "user:password" in URLs, and a
// crawler's output is shared and kept.
//
// Lenient scopes need the Public Suffix List; a copy is embedded
// (public_suffix_list.dat, under its own Mozilla Public License 2.0), and
// suffix.go says why it is not golang.org/x/net/publicsuffix.
//
// Host names get one spelling too: an http or https host is mapped with
// IDNA (UTS #46, golang.org/x/net/idna, with the settings browsers use) to
// its ASCII form, so "bücher.de", "BÜCHER.de" and "xn--bcher-kva.de" are one
// host for the seen set, the scope (the Public Suffix List is looked up in
// Punycode), the robots cache and the per-host limits. This used to be left
// to whoever resolved the name; but the crawler keys all of those by host
// before it resolves anything, and DNS knows only the ASCII form, so the
// ASCII form is the name. A host IDNA refuses is an error ([ErrInvalidHost]),
// and an http URL without a host is never returned ([ErrNotCrawlable]).
//
// What it deliberately does not do: sort query parameters, strip "utm_"
// tracking parameters, or drop "index.html". Each of those can change which
// resource a URL names on some server, so they are policy, not
// normalization.
package urlnorm
