package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"loopkit/crawler"
	"loopkit/loop"
)

// runGroup is run with --loops N > 1: the same crawl on a loop.Group,
// servers shared out between the loops (crawler.Group). What differs from
// one loop is only what the loops share: the callbacks that write -o and
// -v are called from every loop's goroutine, so they take a lock; Ctrl-C
// reaches every loop through CallSoonThreadsafe; the progress line asks
// every loop for its counts the same way.
func runGroup(o *options, stdout, stderr io.Writer, interrupt <-chan struct{}, notice func(string, ...any)) int {
	lg, err := loop.NewGroup(o.loops, &loop.GroupOptions{Options: loop.Options{Poller: o.poller, Stats: true}})
	if err != nil {
		fmt.Fprintf(stderr, "crawl: %v\n", err)
		return 2
	}
	defer func() {
		lg.Close()
		if !o.quiet {
			for i := range lg.Len() {
				fmt.Fprintf(stderr, "crawl: loop %d: %s\n", i, stallLine(lg.Loop(i).Stats()))
			}
		}
	}()
	closeOutput, ok := setOutput(o, stderr)
	if !ok {
		return 1
	}
	defer closeOutput()
	var mu sync.Mutex // the callbacks below are called from every loop
	locked := func(fn func()) { mu.Lock(); defer mu.Unlock(); fn() }
	if onRecord := o.cfg.OnRecord; onRecord != nil {
		o.cfg.OnRecord = func(r *crawler.Record) { locked(func() { onRecord(r) }) }
	}
	if onDisallowed := o.cfg.OnDisallowed; onDisallowed != nil {
		o.cfg.OnDisallowed = func(u string) { locked(func() { onDisallowed(u) }) }
	}
	o.cfg.OnNotice = func(msg string) { locked(func() { notice("%s", msg) }) }

	g, err := crawler.NewGroup(lg, o.cfg)
	if err != nil {
		fmt.Fprintf(stderr, "crawl: %v\n", err)
		return 2
	}
	stopSignals := forwardGroupInterrupts(g, interrupt, func(format string, a ...any) { locked(func() { notice(format, a...) }) })
	defer stopSignals()
	stopProgress := func() {}
	if !o.quiet && isTerminal(stderr) {
		stopProgress = startGroupProgress(g, &mu, stderr)
	}
	notice("crawling %v on %d loops with the %s poller", o.cfg.Roots, lg.Len(), lg.Loop(0).PollerName())
	err = g.Crawl()
	stopProgress()
	if isTerminal(stderr) && !o.quiet {
		fmt.Fprint(stderr, "\r\033[K")
	}
	g.Report(stdout)
	notice("%s", parseLine(g.Stats(), o.cfg))
	notice("%d links crossed from one loop to another", g.HandedOver())
	return exitStatus(g, err, stderr)
}

// forwardGroupInterrupts turns Ctrl-C (or a closed test channel) into
// Group.Interrupt: the first stops new work on every loop, a second
// cancels what is in flight.
func forwardGroupInterrupts(g *crawler.Group, test <-chan struct{}, notice func(string, ...any)) (stop func()) {
	sig := make(chan os.Signal, 2)
	if test == nil {
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for times := 0; ; times++ {
			select {
			case <-done:
				return
			case <-test:
				test = nil
			case <-sig:
			}
			if times == 0 {
				notice("interrupted: no new requests on any loop; finishing what is in flight (again to cancel it)")
			} else {
				notice("interrupted again: cancelling what is in flight")
			}
			g.Interrupt()
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
		<-finished
	}
}

// startGroupProgress redraws the status line twice a second with every
// loop's counts, each read on its own loop.
func startGroupProgress(g *crawler.Group, mu *sync.Mutex, w io.Writer) (stop func()) {
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
			counts := make(chan crawler.Stats, g.Len())
			asked := 0
			for i := range g.Len() {
				c := g.Shard(i)
				if c.Loop().CallSoonThreadsafe(func() { counts <- c.Stats() }) == nil {
					asked++
				}
			}
			var s crawler.Stats
			for range asked {
				select {
				case one := <-counts:
					s = s.Add(one)
				case <-done:
					return
				}
			}
			mu.Lock()
			fmt.Fprintf(w, "\r\033[K%.0f pages/s  fetched %d  in flight %d  queued %d (%d waiting for their host)  errors %d  retries %d  on %d loops",
				float64(s.Fetched)/time.Since(start).Seconds(), s.Fetched, s.InFlight, s.Queued, s.WaitingForHost, s.Errors, s.Retries, g.Len())
			mu.Unlock()
		}
	}()
	return func() { close(done); <-finished }
}
