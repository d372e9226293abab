// Package links finds the links in an HTML page.
//
// crawler/links sits under the crawler: pure parsing, no I/O. The crawler
// fetches a page, checks its Content-Type with [IsHTML], decodes the body to
// UTF-8, and hands it to [Extract], which returns the absolute, normalized
// URLs the page links to; or, when the page was in another charset, to
// [ExtractCharset] with that charset's name, because browsers send a
// link's query in the charset of its page.
//
// The original 500-lines crawler found links with a regular expression. That
// misses what HTML means: it does not decode "&amp;" in an href, ignores
// <base href>, and "finds" links inside comments and scripts. Extract reads
// the page by the HTML5 tokenization rules instead, which know all of
// that: the states of golang.org/x/net/html's tokenizer, which it is
// tested against token for token (scan_test.go), but jumping over text
// to the next '<' and looking inside tags only (scan.go), and handing
// the rare value with a character reference to that tokenizer. It is
// fast: BenchmarkExtract measures the whole job on a 100 KiB page,
// against the 2 ms per page that an article on crawling a million pages
// with asyncio and aiohttp reports for a parser (and 20 ms for a regular
// expression); BenchmarkScan puts the scan beside the tokenizer.
package links
