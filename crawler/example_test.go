package crawler_test

import (
	"fmt"

	"loopkit/crawler"
	"loopkit/loop"
	"loopkit/site"
	"loopkit/task"
)

// Crawl the demo site and look at what was recorded: the whole program
// behind `go run ./cmd/crawl`, minus the flags.
func Example() {
	demo, _ := site.Start(site.Config{Pages: 50}, "127.0.0.1:0")
	defer demo.Close()
	l, _ := loop.New(nil)
	defer l.Close()
	c, _ := crawler.New(l, crawler.Config{Roots: []string{demo.URL()}, MaxTasks: 10})
	task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) })

	fmt.Println("recorded as many URLs as the site has:", len(c.Records()) == len(demo.Expected(true)))
	first := c.Records()[0]
	fmt.Println(first.URL == demo.URL(), *first.Status, first.ContentType, first.Encoding)
	// Output:
	// recorded as many URLs as the site has: true
	// true 200 text/html utf-8
}
