package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"time"

	"loopkit/crawler"
	"loopkit/site"
)

// options is everything the command line says.
type options struct {
	cfg      crawler.Config
	poller   string
	trace    string // --trace FILE: the loops' turns as JSON Lines (trace.go)
	events   string // --trace_events FILE.json: the crawl for a trace viewer (traceevents.go)
	timeline string // --timeline FILE.svg: the loops and every request, a lane each (timeline.go)
	profile  string // --cpuprofile FILE: a pprof CPU profile of the crawl (profile.go)
	verbose  int
	quiet    bool
	insecure bool
	loops    int           // --loops: the crawler.Group's loops (1: one loop, the plain crawler)
	redis    string        // --redis: a crawl shared by processes (fleet.go)
	crawlID  string        // --crawl_id
	shards   int           // --shards
	lease    time.Duration // --lease
	demo     site.Config

	// instruments are what newLoops set up to listen for --trace,
	// --trace_events and --timeline (observe.go), for startTimeline and
	// the end of the crawl. Not a flag: the one thing here that is not.
	instruments *instruments
}

// count is a flag that counts its repetitions: -v -v, or -v=2.
type count int

func (c *count) String() string   { return strconv.Itoa(int(*c)) }
func (c *count) IsBoolFlag() bool { return true }
func (c *count) Set(s string) error {
	if s == "true" {
		*c++
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return errors.New("want a count")
	}
	*c = count(n)
	return nil
}

// regexpFlag compiles --exclude as it is parsed, so a bad pattern is a
// flag error like any other.
type regexpFlag struct{ re **regexp.Regexp }

func (r regexpFlag) String() string {
	if r.re == nil || *r.re == nil {
		return ""
	}
	return (*r.re).String()
}
func (r regexpFlag) Set(s string) error {
	re, err := regexp.Compile(s)
	if err != nil {
		return fmt.Errorf("bad regular expression: %v", err)
	}
	*r.re = re
	return nil
}

const usageHead = `usage: crawl [flags] ROOT...

Crawls from each ROOT (a root without a scheme gets http://) and prints the
500-lines report. With no ROOT it starts the built-in demo site on
127.0.0.1 and crawls that (with --state, on the ports the directory's crawl
had). Flags take one dash or two.

Exit status: 0 every root was crawled; 1 a root could not be, nothing was
fetched, or -o, --state or --redis failed; 2 bad usage; 130 interrupted by
Ctrl-C (SIGINT), 143 stopped by SIGTERM, after the report of what was done.

`

// parseFlags reads args into options. Errors are one line, for exit status 2.
func parseFlags(args []string, stdout io.Writer) (*options, []string, error) {
	o := &options{}
	c := &o.cfg
	fs := flag.NewFlagSet("crawl", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by the caller, in one line
	fs.IntVar(&c.MaxTasks, "max_tasks", 100, "worker tasks")
	fs.IntVar(&c.MaxRedirect, "max_redirect", 10, "redirects followed from one URL")
	fs.IntVar(&c.MaxTries, "max_tries", 4, "attempts per URL, the first included")
	fs.Var(regexpFlag{&c.Exclude}, "exclude", "skip URLs matching this regular expression")
	strict := fs.Bool("strict", true, "crawl only the roots' hosts and their www. twins")
	lenient := fs.Bool("lenient", false, "crawl hosts of the roots' registrable domains")
	fs.Var((*count)(&o.verbose), "v", "more output on stderr (repeatable)")
	fs.BoolVar(&o.quiet, "q", false, "no notices or progress on stderr")
	fs.StringVar(&c.Output, "o", "", "write one JSON line per fetched URL to `FILE`, a pipe or /dev/stdout (with --state or --redis, appended to)")
	fs.StringVar(&c.State, "state", "", "keep the crawl's state in `DIR`: stopped (Ctrl-C, kill -9), the same command goes on where it was")
	fs.StringVar(&o.redis, "redis", "", "share the crawl with other processes through the Redis at `URL` (redis://host:port/db): each works the hosts of the shards it leases")
	fs.StringVar(&o.crawlID, "crawl_id", "", "with --redis: the crawl's `NAME`; processes with the same NAME work on one crawl")
	fs.IntVar(&o.shards, "shards", 16, "with --redis: shards the crawl's hosts are split into, fixed when the crawl is created")
	fs.DurationVar(&o.lease, "lease", 3*time.Second, "with --redis: how long a shard's lease lasts unrenewed (a dead process's shards wait this long)")
	fs.BoolVar(&c.StateReuse, "state_reuse", false, "go on with a --state DIR whose crawl had other roots, scope, filters or -o (its queued URLs must pass this run's filters: a new --exclude escapes a trap), or whose journal is gone (the crawl starts again from its roots)")
	fs.StringVar(&o.trace, "trace", "", "write one JSON line per turn of each event loop to `FILE` (see docs/tutorial.md)")
	fs.StringVar(&o.events, "trace_events", "", "write the crawl as Chrome trace events to `FILE.json`, for Perfetto or chrome://tracing: each loop's turns, waits and callbacks, each connection's requests, the parse workers")
	fs.StringVar(&o.timeline, "timeline", "", "draw the crawl in `FILE.svg`: a lane per loop (busy, asleep, what woke it), per host (requests in flight), per connection (each request in its phases)")
	fs.StringVar(&o.profile, "cpuprofile", "", "write a CPU profile of the crawl to `FILE`, for go tool pprof (with no ROOT the demo site's work is in it too)")
	fs.StringVar(&o.poller, "poller", "", "epoll, kqueue or poll (default: the best this OS has)")
	fs.IntVar(&o.loops, "loops", crawler.DefaultLoops(), "event loops, one goroutine each; servers are shared out between them by a hash of their names "+
		"(1: one loop, the simplest). The default is one loop on two processors or fewer, where a second loop costs more CPU than it saves "+
		"(1.4-1.5x the CPU of one at 20 and 200 hosts, measured by go run ./cmd/bench -scenarios S8), else one per processor, at most 8")
	parseWorkers := fs.Int("parse_workers", runtime.GOMAXPROCS(0), "goroutines that parse pages off the loops (0: every page is parsed on its loop)")
	fs.IntVar(&o.demo.Pages, "demo_pages", 0, "with no ROOT: pages of the demo site (default 200)")
	fs.IntVar(&o.demo.Hosts, "demo_hosts", 0, "with no ROOT: split the demo site over this many hosts, on consecutive ports (default 1)")
	fs.IntVar(&o.demo.PageBytes, "demo_page_bytes", 0, "with no ROOT: pad the demo site's book pages to this many bytes, as real documentation pages are (30000-100000)")
	fs.IntVar(&c.PerHost, "per_host", 8, "requests in flight per host, at most (a host starts at one and earns more)")
	fs.DurationVar(&c.Delay, "delay", 0, "minimum spacing between request starts per host")
	fs.BoolVar(&c.Jitter, "jitter", false, "add up to 50% random extra to each spacing")
	fs.StringVar(&c.UserAgent, "user_agent", crawler.DefaultUserAgent, "User-Agent: name yourself and a contact")
	robots := fs.Bool("robots", true, "obey robots.txt (turn off only for sites that are yours)")
	fs.IntVar(&c.MaxPages, "max_pages", 0, "stop after fetching this many pages (0: no limit)")
	fs.IntVar(&c.MaxDepth, "max_depth", 0, "follow links at most this deep from a root (0: no limit)")
	fs.IntVar(&c.MaxPagesPerHost, "max_pages_per_host", 0, "queue at most this many URLs per host (0: no limit)")
	fs.IntVar(&c.MaxQueryVariants, "max_query_variants", 1000, "follow at most this many different queries per path, against calendars and search traps (0: no limit)")
	fs.IntVar(&c.MaxURLLength, "max_url_length", 2083, "skip longer URLs")
	fs.DurationVar(&c.MaxRetryAfter, "max_retry_after", 10*time.Minute, "longest Retry-After to wait for; a host asking for longer is given up, with its URLs recorded")
	fs.BoolVar(&c.AllBodies, "all_bodies", false, "read every response body, not only HTML ones")
	fs.IntVar(&c.QueueMemory, "queue_memory", 100000, "queued URLs kept in memory; past it, long host queues wait on disk and come back in order (0: no limit)")
	fs.IntVar(&c.SeenMemory, "seen_memory", 1000000, "URLs the seen set keeps in memory; past it, they go to disk, sorted, and new links are checked there in batches (0: no limit)")
	fs.IntVar(&c.ReportURLs, "report_urls", 10000, "list a line per URL in the report for crawls of at most this many URLs (0: never); past it, the report gives the tallies and no record is kept in memory")
	fs.DurationVar(&c.HTTP.ConnectTimeout, "connect_timeout", 10*time.Second, "TCP connect timeout")
	fs.DurationVar(&c.HTTP.ReadTimeout, "read_timeout", 30*time.Second, "longest silence while reading a response")
	fs.DurationVar(&c.HTTP.WriteTimeout, "write_timeout", 10*time.Second, "longest stall while sending a request")
	fs.DurationVar(&c.HTTP.PoolTimeout, "pool_timeout", 30*time.Second, "longest wait for a free connection")
	fs.DurationVar(&c.HTTP.TotalTimeout, "timeout", 2*time.Minute, "deadline for a whole request")
	fs.DurationVar(&c.HTTP.HeaderTimeout, "header_timeout", 0, "deadline for a response's head, from the request sent (0: the read timeout)")
	fs.DurationVar(&c.HTTP.HandshakeTimeout, "handshake_timeout", 10*time.Second, "TLS handshake timeout")
	caFile := fs.String("ca", "", "trust the certificate authorities in `FILE` (PEM) for https, besides the system's")
	fs.BoolVar(&o.insecure, "insecure", false, "do not verify https certificates: for testing only, anyone on the way can read and change what is crawled")
	fs.Int64Var(&c.HTTP.Limits.MaxBodyBytes, "max_body", 10<<20, "largest response body in bytes (after gzip)")
	fs.Usage = func() {} // the flag package calls it on every error; we print one line instead
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usageHead)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
		}
		return nil, nil, err
	}
	switch {
	case c.MaxTasks < 1:
		return nil, nil, errors.New("--max_tasks must be at least 1")
	case c.MaxTries < 1:
		return nil, nil, errors.New("--max_tries must be at least 1")
	case c.MaxRedirect < 0, c.PerHost < 1, c.MaxPages < 0, c.MaxDepth < 0, c.Delay < 0:
		return nil, nil, errors.New("--max_redirect, --max_pages, --max_depth and --delay cannot be negative, --per_host must be at least 1")
	case c.MaxPagesPerHost < 0, c.MaxQueryVariants < 0, c.MaxURLLength < 1, c.MaxRetryAfter <= 0:
		return nil, nil, errors.New("--max_pages_per_host and --max_query_variants cannot be negative; --max_url_length and --max_retry_after must be positive")
	case c.ReportURLs < 0, c.QueueMemory < 0, c.SeenMemory < 0:
		return nil, nil, errors.New("--report_urls, --queue_memory and --seen_memory cannot be negative")
	}
	switch {
	case o.loops < 1 || o.loops > 256:
		return nil, nil, errors.New("--loops must be between 1 and 256")
	case *parseWorkers < 0:
		return nil, nil, errors.New("--parse_workers cannot be negative")
	case o.demo.Pages < 0 || o.demo.PageBytes < 0 || o.demo.Hosts < 0:
		return nil, nil, errors.New("--demo_pages, --demo_hosts and --demo_page_bytes cannot be negative")
	}
	if o.redis != "" {
		switch {
		case o.crawlID == "":
			return nil, nil, errors.New("--redis needs --crawl_id NAME")
		case c.State != "":
			return nil, nil, errors.New("--state and --redis do not go together: a shared crawl keeps its state in Redis")
		case isSet(fs, "loops") && o.loops > 1:
			return nil, nil, errors.New("--redis runs one loop per process: add processes, not loops")
		case o.shards < 1 || o.shards > 4096 || o.lease < 500*time.Millisecond:
			return nil, nil, errors.New("--shards must be between 1 and 4096, --lease at least 500ms")
		}
		o.loops = 1
	}
	c.ParseWorkers = *parseWorkers
	if c.ParseWorkers == 0 {
		c.ParseWorkers = -1 // Config's zero means the default; negative means none
	}
	if c.MaxQueryVariants == 0 {
		c.MaxQueryVariants = -1 // Config's zero means the default; negative means none
	}
	if c.ReportURLs == 0 {
		c.ReportURLs = -1 // Config's zero means the default; negative means never
	}
	if c.QueueMemory == 0 {
		c.QueueMemory = -1 // Config's zero means the default; negative means no limit
	}
	if c.SeenMemory == 0 {
		c.SeenMemory = -1 // likewise
	}
	if c.MaxRedirect == 0 {
		c.MaxRedirect = -1 // Config's zero means the default; -1 means none
	}
	c.Lenient = *lenient && !(isSet(fs, "strict") && *strict)
	c.NoRobots = !*robots
	if *caFile != "" || o.insecure {
		c.HTTP.TLS = &tls.Config{InsecureSkipVerify: o.insecure}
	}
	if *caFile != "" {
		roots, err := loadRoots(*caFile)
		if err != nil {
			return nil, nil, err
		}
		c.HTTP.TLS.RootCAs = roots
	}
	return o, fs.Args(), nil
}

// loadRoots is the system's certificate pool plus the certificates in the
// PEM file at path.
func loadRoots(path string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--ca: %w", err)
	}
	roots, err := x509.SystemCertPool()
	if err != nil {
		roots = x509.NewCertPool() // no system pool here: FILE's alone
	}
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--ca %s: no PEM certificate in it", path)
	}
	return roots, nil
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
