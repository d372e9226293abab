// Command colly crawls a site with colly, the crawler framework a Go
// programmer would most likely pick instead of loopkit, as the crawl
// command crawls it by default: from the roots, following <a href>
// within the roots' hosts, robots.txt obeyed, at most -per_host requests
// in flight per host. bench/harness's S9 runs it beside the crawl command
// and Scrapy and measures all three from outside: CPU, peak RSS, and
// the URLs the site says it served.
//
//	go run . -per_host 8 http://127.0.0.1:8080/ ...
//
// It lives in a Go module of its own (bench/peers), so that colly and
// its dependencies never become loopkit's: `go test ./...` at the top of
// the repository does not see this module.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"sync/atomic"

	"github.com/gocolly/colly/v2"
)

func main() {
	perHost := flag.Int("per_host", 8, "requests in flight per host, at most")
	flag.Parse()
	roots := flag.Args()
	if len(roots) == 0 {
		fmt.Fprintln(os.Stderr, "usage: colly [-per_host N] ROOT...")
		os.Exit(2)
	}
	var pages, failed atomic.Int64
	c := colly.NewCollector(colly.Async(true))
	c.IgnoreRobotsTxt = false
	var hosts []string
	for _, r := range roots {
		u, err := url.Parse(r)
		if err != nil {
			fmt.Fprintln(os.Stderr, "colly:", err)
			os.Exit(2)
		}
		hosts = append(hosts, u.Host)
		// One rule per host: colly's limit counts per rule, and a rule
		// matching every host would be one limit for them all.
		if err := c.Limit(&colly.LimitRule{DomainGlob: u.Host, Parallelism: *perHost}); err != nil {
			fmt.Fprintln(os.Stderr, "colly:", err)
			os.Exit(2)
		}
	}
	// Stay on the roots' hosts (AllowedDomains compares host names, and
	// every host of the demo site is 127.0.0.1: ports tell them apart).
	inScope := func(link string) bool {
		u, err := url.Parse(link)
		if err != nil {
			return false
		}
		for _, h := range hosts {
			if u.Host == h {
				return true
			}
		}
		return false
	}
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		if link := e.Request.AbsoluteURL(e.Attr("href")); link != "" && inScope(link) {
			e.Request.Visit(link)
		}
	})
	c.OnResponse(func(*colly.Response) { pages.Add(1) })
	c.OnError(func(r *colly.Response, err error) {
		if r != nil && r.StatusCode > 0 {
			pages.Add(1) // a 404 is a page fetched, as the crawl command counts it
			return
		}
		failed.Add(1)
	})
	for _, r := range roots {
		if err := c.Visit(r); err != nil {
			fmt.Fprintln(os.Stderr, "colly:", err)
		}
	}
	c.Wait()
	json.NewEncoder(os.Stdout).Encode(map[string]int64{"pages": pages.Load(), "failed": failed.Load()})
}
