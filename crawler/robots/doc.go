// Package robots implements the Robots Exclusion Protocol, RFC 9309: it
// parses a robots.txt file and answers whether a path may be crawled.
//
// crawler/robots sits under the crawler: pure parsing and matching, the
// crawler fetches the file. Per host, the crawler fetches /robots.txt once,
// turns the response into [Rules] (with [ForStatus] deciding what a status
// code means, and [Parse] reading a body), then asks [Rules.Allowed] before
// every request to that host and spaces its requests by
// [Rules.CrawlDelay].
//
// The original 500-lines crawler ignored robots.txt. A crawler learners
// copy must not: it is how a site says where a robot is welcome.
//
// The rules of RFC 9309 this package follows, and where to find them:
//
//   - groups and user agents (§2.1, §2.2.1): [Parse];
//   - longest match, Allow wins ties, "*" and "$", percent-encoding
//     (§2.2.2, §2.2.3): [Rules.Allowed];
//   - what status codes and network errors mean (§2.3.1): [ForStatus];
//   - the 500 KiB parsing limit (§2.5): [MaxSize].
//
// RFC 9309 §2.4 adds that rules should not be cached for more than 24
// hours; refetching is the crawler's job. Crawl-delay is not part of
// RFC 9309, which lets crawlers interpret records it does not define
// (§2.2.4); we honour it because it is the most common way a site asks to
// be crawled slowly.
package robots
