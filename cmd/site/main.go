// Command site serves loopkit's synthetic book shop, the site that the crawler demo and
// the benchmarks crawl (see package loopkit/site).
//
//	go run ./cmd/site -addr 127.0.0.1:8080 -pages 10000 -fanout 20
//	go run ./cmd/site -addr 127.0.0.1:8080 -pages 1000000 -hosts 20
//	go run ./cmd/site -addr 127.0.0.1:8080 -pages 10000000 -hosts 20
//
// With -hosts H, the one site is split over H hosts on consecutive ports from -addr's
// (see package site); a host serves at most a million pages, so a bigger site needs
// more hosts. Pages are rendered as they are asked for: ten million of them cost the
// site about 160 MB. Once every host listens, stdout has each host's root URL on a
// line of its own, host 0's first: a benchmark harness can start the site with
// -addr 127.0.0.1:0 and read where it landed. It serves until SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"loopkit/site"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes: 2 for a usage error (bad flags, an address that needs -public), 1 when
// the site cannot start for another reason (the port is taken, say).
const (
	exitFailure = 1
	exitUsage   = 2
)

// run serves the site until ctx is done and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("site", flag.ContinueOnError)
	flags.SetOutput(io.Discard) // errors are reported in one line below, usage only on -h
	var (
		cfg        site.Config
		addr       = flags.String("addr", "127.0.0.1:0", "listen on `host:port` (port 0: any free port)")
		gomaxprocs = flags.Int("gomaxprocs", 0, "set GOMAXPROCS to `n` (0: leave it as it is)")
	)
	flags.IntVar(&cfg.Pages, "pages", 200, "about `n` HTML pages (at most a million a host)")
	flags.IntVar(&cfg.FanOut, "fanout", 20, "`n` books per category list page")
	flags.IntVar(&cfg.Depth, "depth", 3, "`n` list pages per category")
	flags.IntVar(&cfg.Hosts, "hosts", 1, "split the site over `n` hosts, on consecutive ports from -addr's")
	flags.Int64Var(&cfg.Seed, "seed", 0, "the `seed` that picks titles and links")
	flags.IntVar(&cfg.PageBytes, "page-bytes", 0, "pad book pages with prose and links to `n` bytes, as real documentation pages are (0: the shop's small pages)")
	flags.DurationVar(&cfg.CrawlDelay, "crawl-delay", 0, "announce this Crawl-delay in robots.txt (0: none)")
	flags.IntVar(&cfg.TrackPaths, "track-paths", 0, "count requests per path for up to `n` distinct paths (0: 131072), the rest as (other)")
	flags.BoolVar(&cfg.Public, "public", false, "allow a non-loopback -addr")

	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			flags.SetOutput(stderr)
			fmt.Fprintln(stderr, "usage: site [flags]")
			flags.PrintDefaults()
			return 0
		}
		fmt.Fprintln(stderr, "site:", err)
		return exitUsage
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "site: unexpected argument %q\n", flags.Arg(0))
		return exitUsage
	}
	if cfg.Hosts < 1 { // 0 would be Config's default, one host: say so rather than guess
		fmt.Fprintf(stderr, "site: -hosts must be at least 1, not %d\n", cfg.Hosts)
		return exitUsage
	}
	if *gomaxprocs < 0 {
		fmt.Fprintf(stderr, "site: -gomaxprocs must not be negative, not %d\n", *gomaxprocs)
		return exitUsage
	}
	if *gomaxprocs > 0 {
		runtime.GOMAXPROCS(*gomaxprocs)
	}

	s, err := site.Start(cfg, *addr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		if errors.Is(err, site.ErrConfig) {
			return exitUsage
		}
		return exitFailure
	}
	for _, u := range s.URLs() {
		fmt.Fprintln(stdout, u)
	}
	// Not len(s.Expected(false)): walking a million pages would take seconds and
	// hundreds of MiB, on every start.
	fmt.Fprintf(stderr, "site: serving about %d pages on %d host(s) (GOMAXPROCS=%d); GET %sstats for the counters; Ctrl-C to stop\n",
		cfg.Pages, len(s.URLs()), runtime.GOMAXPROCS(0), s.URL())

	<-ctx.Done()
	if err := s.Close(); err != nil {
		fmt.Fprintln(stderr, "site:", err)
		return exitFailure
	}
	return 0
}
