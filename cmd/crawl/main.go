// Command crawl is the 500-lines crawler on loopkit's event loop.
//
//	go run ./cmd/crawl                     # crawl the built-in demo site
//	go run ./cmd/crawl -o out.jsonl example.com
//
// stdout carries the chapter's report; stderr carries notices, -v logging
// and, on a terminal, a live progress line. Exit status:
//
//	0    every root was crawled
//	1    a root could not be crawled (no answer, an error status, robots.txt
//	     unreadable or forbidding it), or nothing at all was fetched
//	2    bad usage
//	130  interrupted (after the report of what was done)
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"loopkit/crawler"
	"loopkit/internal/printable"
	"loopkit/loop"
	"loopkit/site"
	"loopkit/task"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, nil))
}

// run is the whole command, testable: interrupt, if not nil, replaces
// SIGINT (a test closes it to play Ctrl-C).
func run(args []string, stdout, stderr io.Writer, interrupt <-chan struct{}) int {
	o, roots, err := parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "crawl: %v (crawl -h lists the flags)\n", err)
		return 2
	}
	notice := func(format string, a ...any) {
		if !o.quiet {
			fmt.Fprintf(stderr, "crawl: "+format+"\n", a...)
		}
	}
	if o.insecure { // said even with -q: it makes every https page untrustworthy
		fmt.Fprintln(stderr, "crawl: WARNING: --insecure: https certificates are not verified; anyone between here and the servers can read and change what is crawled")
	}
	if len(roots) == 0 {
		demo, err := site.Start(o.demo, "127.0.0.1:0")
		if err != nil {
			fmt.Fprintf(stderr, "crawl: starting the demo site: %v\n", err)
			return 2 // its flags were out of range
		}
		defer demo.Close()
		roots = []string{demo.URL()}
		notice("no root given: crawling the built-in demo site at %s", demo.URL())
	}
	for _, r := range roots {
		if _, err := crawler.ParseRoot(r); err != nil {
			fmt.Fprintf(stderr, "crawl: %v\n", err)
			return 2
		}
	}
	o.cfg.Roots = roots
	if o.loops > 1 {
		return runGroup(o, stdout, stderr, interrupt, notice) // group.go
	}

	l, finishLoop, err := newLoop(o, stderr) // trace.go: the loop's stats and --trace
	if err != nil {
		fmt.Fprintf(stderr, "crawl: %v\n", err)
		return 2
	}
	defer finishLoop() // closes the loop, then prints its stats

	closeOutput, ok := setOutput(o, stderr)
	if !ok {
		return 1
	}
	defer closeOutput()
	o.cfg.OnNotice = func(msg string) { notice("%s", msg) }
	defer startTimeline(o, notice)() // timeline.go: --timeline, drawn when the crawl is over

	c, err := crawler.New(l, o.cfg)
	if err != nil {
		fmt.Fprintf(stderr, "crawl: %v\n", err)
		return 2
	}
	stopSignals := forwardInterrupts(l, c, interrupt, notice)
	defer stopSignals()
	if !o.quiet && isTerminal(stderr) {
		startProgress(l, c, stderr)
	}
	notice("crawling %v with the %s poller", roots, l.PollerName())
	_, err = task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) })
	if isTerminal(stderr) && !o.quiet {
		fmt.Fprint(stderr, "\r\033[K")
	}
	c.Report(stdout)
	notice("%s", parseLine(c.Stats(), o.cfg))
	return exitStatus(c, err, stderr)
}

// setOutput sets the callbacks that write -o's JSON Lines and -v's lines.
// closeOutput flushes and closes -o's file; ok is false if it could not
// be created (said on stderr).
func setOutput(o *options, stderr io.Writer) (closeOutput func(), ok bool) {
	closeOutput = func() {}
	if o.output != "" {
		out, err := createJSONL(o.output)
		if err != nil {
			fmt.Fprintf(stderr, "crawl: %v\n", err)
			return nil, false
		}
		closeOutput = func() {
			if err := out.close(); err != nil {
				fmt.Fprintf(stderr, "crawl: writing %s: %v\n", o.output, err)
			}
		}
		failed := false
		o.cfg.OnRecord = func(r *crawler.Record) {
			if err := out.write(r); err != nil && !failed {
				failed = true // said once: a full disk fails every line
				fmt.Fprintf(stderr, "crawl: writing %s: %v\n", o.output, err)
			}
		}
	}
	if o.verbose > 0 {
		write := o.cfg.OnRecord
		o.cfg.OnRecord = func(r *crawler.Record) {
			if write != nil {
				write(r)
			}
			fmt.Fprintln(stderr, printable.Escape(describe(r))) // a server's words, made harmless
		}
		o.cfg.OnDisallowed = func(url string) { fmt.Fprintf(stderr, "%s disallowed by robots.txt\n", url) }
	}
	return closeOutput, true
}

// parseLine says where the crawl's pages were parsed.
func parseLine(s crawler.Stats, cfg crawler.Config) string {
	if cfg.ParseWorkers < 0 {
		return "parsing: every page on the loop (--parse_workers 0)"
	}
	return fmt.Sprintf("parsing: %d pages off the loop on %d workers, the rest on the loop; at most %d KiB of bodies awaited parsing",
		s.ParsedOffLoop, cfg.ParseWorkers, s.ParseBacklogPeak>>10)
}

// outcome is what exitStatus needs of a crawl: a Crawler's or a Group's.
type outcome interface {
	Stats() crawler.Stats
	FailedRoots() []string
}

// exitStatus says how the crawl went, and on stderr why it failed.
func exitStatus(c outcome, err error, stderr io.Writer) int {
	if err != nil {
		fmt.Fprintf(stderr, "crawl: %v\n", err)
		return 1
	}
	if c.Stats().Interrupted {
		return 130
	}
	code := 0
	for _, why := range c.FailedRoots() {
		fmt.Fprintf(stderr, "crawl: root %s\n", why)
		code = 1
	}
	if c.Stats().Fetched == 0 && code == 0 {
		fmt.Fprintln(stderr, "crawl: nothing was fetched")
		code = 1
	}
	return code
}

// forwardInterrupts turns Ctrl-C (or a closed test channel) into
// Crawler.Interrupt on the loop: the first stops new work, a second
// cancels what is in flight.
func forwardInterrupts(l *loop.Loop, c *crawler.Crawler, test <-chan struct{}, notice func(string, ...any)) (stop func()) {
	sig := make(chan os.Signal, 2)
	if test == nil {
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			case <-test:
				test = nil
			case <-sig:
			}
			l.CallSoonThreadsafe(func() {
				if c.Stats().Interrupted {
					notice("interrupted again: cancelling what is in flight")
				} else {
					notice("interrupted: no new requests; finishing the %d in flight (again to cancel them)", c.Stats().InFlight)
				}
				c.Interrupt()
			})
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
		<-finished
	}
}

func describe(r *crawler.Record) string {
	switch {
	case r.Status == nil:
		return fmt.Sprintf("%s error %s", r.URL, *r.Exception)
	case r.NextURL != nil:
		return fmt.Sprintf("%s %d → %s", r.URL, *r.Status, *r.NextURL)
	}
	return fmt.Sprintf("%s %d %s %d bytes, %d/%d new links, %d tries, %.1f ms",
		r.URL, *r.Status, r.ContentType, r.Size, r.NumNewURLs, r.NumURLs, r.Tries, r.ElapsedMS)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// startProgress redraws one status line on stderr twice a second, from a
// loop timer: no goroutine, no lock.
func startProgress(l *loop.Loop, c *crawler.Crawler, w io.Writer) {
	var tick func()
	tick = func() {
		s := c.Stats()
		secs := c.Elapsed().Seconds()
		rate := 0.0
		if secs > 0 {
			rate = float64(s.Fetched) / secs
		}
		fmt.Fprintf(w, "\r\033[K%.0f pages/s  fetched %d  in flight %d  queued %d (%d waiting for their host)  errors %d  retries %d",
			rate, s.Fetched, s.InFlight, s.Queued, s.WaitingForHost, s.Errors, s.Retries)
		l.CallLater(500*time.Millisecond, tick)
	}
	l.CallLater(500*time.Millisecond, tick)
}
