// Command crawl is the 500-lines crawler on loopkit's event loop.
//
//	go run ./cmd/crawl                     # crawl the built-in demo site
//	go run ./cmd/crawl -o out.jsonl example.com
//
// stdout carries the chapter's report; stderr carries notices, -v logging
// and, on a terminal, a live progress line. Exit status:
//
//	0    every root was crawled (or, with --redis, the fleet's crawl ended;
//	     with --state, a finished crawl had nothing left to do)
//	1    a root could not be crawled (no answer, an error status, robots.txt
//	     unreadable or forbidding it), nothing at all was fetched, or -o,
//	     --state or --redis failed (a full disk, another crawl's directory,
//	     Redis unreachable at the start)
//	2    bad usage
//	130  interrupted by Ctrl-C, SIGINT (after the report of what was done)
//	143  stopped by SIGTERM (likewise): the shell's 128 + the signal's number
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/fleet"
	"loopkit/crawler/journal"
	"loopkit/internal/printable"
	"loopkit/site"
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
	if len(roots) == 0 && o.redis == "" {
		addr, why := demoAddr(o.cfg.State)
		demo, err := site.Start(o.demo, addr)
		if err != nil {
			fmt.Fprintf(stderr, "crawl: starting the demo site%s: %v\n", why, err)
			return 2 // its flags were out of range, or its port is taken
		}
		defer demo.Close()
		roots = demo.URLs()
		if len(roots) == 1 {
			notice("no root given: crawling the built-in demo site at %s", demo.URL())
		} else {
			notice("no root given: crawling the built-in demo site on %d hosts, %s to %s", len(roots), roots[0], roots[len(roots)-1])
		}
	}
	for _, r := range roots {
		if _, err := crawler.ParseRoot(r); err != nil {
			fmt.Fprintf(stderr, "crawl: %v\n", err)
			return 2
		}
	}
	o.cfg.Roots = roots

	stopProfile, err := startCPUProfile(o.profile)
	if err != nil {
		fmt.Fprintf(stderr, "crawl: %v\n", err)
		return 2
	}
	defer stopProfile()

	lg, finishLoops, err := newLoops(o, stderr) // trace.go: the loops' stats and --trace
	if err != nil {
		fmt.Fprintf(stderr, "crawl: %v\n", err)
		return 2
	}
	defer finishLoops() // closes the loops, then prints their stats

	var fl *fleet.Fleet
	if o.redis != "" {
		if fl, err = joinFleet(o, lg.Loop(0), notice); err != nil {
			fmt.Fprintf(stderr, "crawl: %s\n", flagWords.Replace(err.Error()))
			return 1
		}
		defer fl.Close()
		roots = fl.Roots()
		o.cfg.Roots = roots
		o.cfg.Shared = fl
	}
	setOutput(o, stderr)
	o.cfg.OnNotice = func(msg string) { notice("%s", flagWords.Replace(msg)) }
	defer startTimeline(o, notice)() // timeline.go: --timeline, drawn when the crawl is over

	// One crawl on lg's loops. crawler.Group calls the callbacks set
	// above from every loop, one at a time; with one loop it is the plain
	// crawler.
	g, err := crawler.NewGroup(lg, o.cfg)
	if err != nil {
		fmt.Fprintf(stderr, "crawl: %s\n", flagWords.Replace(err.Error()))
		return 1 // the roots were checked: it is -o or --state that failed
	}
	signalled, stopSignals := forwardInterrupts(g, interrupt, notice)
	defer stopSignals()
	stopProgress := func() {}
	if !o.quiet && isTerminal(stderr) {
		stopProgress = startProgress(g, stderr)
	}
	notice("crawling %v on %s with the %s poller", roots, plural(lg.Len(), "loop"), lg.Loop(0).PollerName())
	err = g.Crawl()
	stopProgress()
	if isTerminal(stderr) && !o.quiet {
		fmt.Fprint(stderr, "\r\033[K")
	}
	g.Report(stdout)
	if fl != nil {
		fleetReport(fl, lg.Loop(0), stdout, g.Stats().Fetched)
	}
	notice("%s", parseLine(g.Stats(), o.cfg))
	notice("queue: at most %d URLs waited in memory at once (--queue_memory %d, the rest on disk)", g.Stats().QueuedPeak, o.cfg.QueueMemory)
	if seen := g.Stats().Seen; seen.OnDisk > 0 {
		notice("seen set: %d URLs on disk past --seen_memory %d; %d links asked of it in %d passes, %d of them seen before",
			seen.OnDisk, o.cfg.SeenMemory, seen.Asked, seen.Passes, seen.Repeats)
	}
	if lg.Len() > 1 {
		notice("%d links crossed from one loop to another", g.HandedOver())
	}
	return exitStatus(g, err, fl != nil, signalled(), stderr)
}

// demoAddr is where the built-in demo site listens: any free port, but
// with --state, the port of the crawl the directory holds, if it was a
// demo's. The demo's URLs are the crawl's roots, and its pages' URLs its
// journal's: on other ports, the same command could not go on. why says
// so, for an error.
func demoAddr(state string) (addr, why string) {
	if state == "" {
		return "127.0.0.1:0", ""
	}
	s, ok, err := journal.ReadSettings(state)
	if err != nil || !ok || len(s.Roots) == 0 {
		return "127.0.0.1:0", ""
	}
	u, err := url.Parse(s.Roots[0])
	if err != nil || u.Hostname() != "127.0.0.1" || u.Port() == "" {
		return "127.0.0.1:0", ""
	}
	return u.Host, fmt.Sprintf(" on %s, where the crawl in --state %s had it", u.Host, state)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// setOutput sets the callbacks that write -v's lines. -o's JSON Lines
// are the crawler's to write (Config.Output), in batches off the loop.
func setOutput(o *options, stderr io.Writer) {
	if o.verbose > 0 {
		o.cfg.OnRecord = func(r *crawler.Record) { fmt.Fprintln(stderr, printable.Escape(describe(r))) } // a server's words, made harmless
		o.cfg.OnDisallowed = func(url string) { fmt.Fprintf(stderr, "%s disallowed by robots.txt\n", url) }
	}
}

// parseLine says where the crawl's pages were parsed.
func parseLine(s crawler.Stats, cfg crawler.Config) string {
	if cfg.ParseWorkers < 0 {
		return "parsing: every page on the loop (--parse_workers 0)"
	}
	return fmt.Sprintf("parsing: %d pages off the loop on %d workers, the rest (pages under %s) on the loop; at most %d KiB of bodies awaited parsing",
		s.ParsedOffLoop, cfg.ParseWorkers, kib(inlineBelow(cfg)), s.ParseBacklogPeak>>10)
}

// inlineBelow is the body size under which the crawler parses a page on
// its loop all the same (Config.ParseInlineBelow, whose default is 4 KiB:
// a smaller page's trip to a worker costs more than its parsing). The
// line says it, or "0 pages off the loop" would read as a fault.
func inlineBelow(cfg crawler.Config) int {
	if cfg.ParseInlineBelow > 0 {
		return cfg.ParseInlineBelow
	}
	return 4 << 10
}

// kib writes a size in KiB when it is a whole number of them.
func kib(n int) string {
	if n%1024 == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// exitStatus says how the crawl went, and on stderr why it failed. sig
// is the signal that stopped it, if one did.
func exitStatus(c *crawler.Group, err error, shared bool, sig os.Signal, stderr io.Writer) int {
	if err != nil {
		fmt.Fprintf(stderr, "crawl: %s\n", flagWords.Replace(err.Error()))
		return 1
	}
	if c.Stats().Interrupted {
		if sig == syscall.SIGTERM {
			return 143
		}
		return 130
	}
	if shared {
		// A process of a fleet may fetch no root, or nothing at all: the
		// crawl is the fleet's, and its counts are in the Fleet report.
		return 0
	}
	code := 0
	for _, why := range c.FailedRoots() {
		fmt.Fprintf(stderr, "crawl: root %s\n", why)
		code = 1
	}
	if c.Stats().Fetched == 0 && code == 0 && c.Resumed() && c.Stats().Done == 0 {
		if c.Finished() {
			fmt.Fprintln(stderr, "crawl: nothing was left to do: the crawl in --state was finished")
		} else {
			fmt.Fprintln(stderr, "crawl: nothing was left to do: every URL of the crawl in --state was done, and now it is finished")
		}
		return 0
	}
	if c.Stats().Fetched == 0 && code == 0 {
		fmt.Fprintln(stderr, "crawl: nothing was fetched")
		code = 1
	}
	return code
}

// forwardInterrupts turns Ctrl-C or SIGTERM (or a closed test channel,
// which plays SIGINT) into Group.Interrupt: the first stops new work on
// every loop, a second cancels what is in flight. signalled says which
// signal came first, if one did.
func forwardInterrupts(g *crawler.Group, test <-chan struct{}, notice func(string, ...any)) (signalled func() os.Signal, stop func()) {
	sig := make(chan os.Signal, 2)
	if test == nil {
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	}
	done, finished := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	var first os.Signal
	go func() {
		defer close(finished)
		for times := 0; ; times++ {
			var s os.Signal = os.Interrupt
			select {
			case <-done:
				return
			case <-test:
				test = nil
			case s = <-sig:
			}
			mu.Lock()
			if first == nil {
				first = s
			}
			mu.Unlock()
			if times == 0 {
				notice("interrupted: no new requests; finishing what is in flight (again to cancel it)")
			} else {
				notice("interrupted again: cancelling what is in flight")
			}
			g.Interrupt()
		}
	}()
	signalled = func() os.Signal {
		mu.Lock()
		defer mu.Unlock()
		return first
	}
	return signalled, func() {
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

// startProgress redraws one status line on stderr twice a second, with
// every loop's counts, each read on its own loop (Group.LiveStats).
func startProgress(g *crawler.Group, w io.Writer) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			s, err := g.LiveStats()
			if err != nil {
				continue // not running yet, or over
			}
			fmt.Fprintf(w, "\r\033[K%.0f pages/s  fetched %d  in flight %d  queued %d (%d waiting for their host)  errors %d  retries %d",
				float64(s.Fetched)/time.Since(start).Seconds(), s.Fetched, s.InFlight, s.Queued, s.WaitingForHost, s.Errors, s.Retries)
		}
	}()
	return func() { close(done); <-finished }
}
