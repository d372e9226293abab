package robots_test

import (
	"fmt"

	"loopkit/crawler/robots"
)

func Example() {
	// What the crawler does with GET /robots.txt, once per host.
	status, body := 200, []byte(`
# Everyone: stay out of /private/, except its public corner.
User-agent: *
Disallow: /private/
Allow: /private/public/
Disallow: /*.pdf$

# Our own group replaces the "*" group: its *.pdf rule is not for us.
User-agent: loopkit
Disallow: /private/
Allow: /private/public/
Crawl-delay: 1.5
`)
	var rules *robots.Rules
	switch robots.ForStatus(status) {
	case robots.UseBody:
		rules = robots.Parse(body, "loopkit")
	case robots.Unavailable:
		rules = robots.AllowAll()
	case robots.Unreachable:
		rules = robots.DisallowAll()
	case robots.FollowRedirect:
		// follow Location, at most robots.MaxRedirects times
	}

	for _, path := range []string{"/", "/private/keys", "/private/public/index.html", "/report.pdf"} {
		fmt.Println(path, rules.Allowed(path))
	}
	delay, ok := rules.CrawlDelay()
	fmt.Println("crawl delay:", delay, ok)
	// Output:
	// / true
	// /private/keys false
	// /private/public/index.html true
	// /report.pdf true
	// crawl delay: 1.5s true
}

func ExampleForStatus() {
	for _, status := range []int{200, 301, 404, 429, 503} {
		fmt.Println(status, robots.ForStatus(status))
	}
	// Output:
	// 200 use body
	// 301 follow redirect
	// 404 unavailable: allow all
	// 429 unreachable: disallow all
	// 503 unreachable: disallow all
}
