// Stage 6: the crawler, used as a library.
//
// Everything so far fetched a list of pages known in advance. A crawler
// finds its pages as it goes: each page's links are the next pages. The
// 500-lines chapter's answer is a queue of URLs, a set of the URLs already
// seen, a fixed number of worker tasks taking from the queue, and Join:
// the crawl is over when every URL put in the queue has been handled.
// loopkit's crawler package is that design, with the politeness and the
// error handling a real crawler needs; here we only drive it.
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"loopkit/crawler"
	"loopkit/docs/stages/internal/demo"
	"loopkit/loop"
	"loopkit/task"
)

func main() {
	if err := run(os.Stdout, 20*time.Millisecond, 10); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run crawls the demo site, whose server takes latency to answer each
// request, with maxTasks workers.
func run(w io.Writer, latency time.Duration, maxTasks int) error {
	server, err := demo.Start(latency, 0)
	if err != nil {
		return err
	}
	defer server.Close()
	l, err := loop.New(nil)
	if err != nil {
		return err
	}
	defer l.Close()

	c, err := crawler.New(l, crawler.Config{
		Roots:    []string{server.URL()},
		MaxTasks: maxTasks,
		PerHost:  4, // requests in flight to one host: the server's load is ours to limit
	})
	if err != nil {
		return err
	}
	// The chapter's loop.run_until_complete(crawler.crawl()).
	if _, err := task.Run(l, func(y task.Yield) (struct{}, error) {
		return struct{}{}, c.Crawl(y)
	}); err != nil {
		return err
	}
	c.Report(w)
	fmt.Fprintf(w, "the site has %d URLs a polite crawler fetches; the server saw at most %d requests at once\n",
		server.Expected(), server.Peak())
	return nil
}
