package crawler

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"runtime"
	"strings"
	"time"

	"loopkit/crawler/http1"
	"loopkit/crawler/urlnorm"
)

// Config is a crawl. Zero fields take the defaults in brackets, which are
// the chapter's where it had one. The chapter's fields come first; then,
// in headed blocks, what this crawler adds.
type Config struct {
	Roots       []string       // where to start; a root without a scheme gets http://
	MaxTasks    int            // worker tasks [100]
	MaxRedirect int            // redirects followed from one URL [10]; negative: none
	MaxTries    int            // attempts per URL, the first included [4]
	Exclude     *regexp.Regexp // URLs matching it are not crawled
	Lenient     bool           // match hosts by registrable domain, not exactly

	// How far the crawl goes.

	MaxPages int // stop fetching after this many pages [no limit]
	MaxDepth int // links followed from a root [no limit]
	// MaxURLLength drops longer links, as traps tend to grow them. [2083,
	// Scrapy's default, after an old browser's limit]
	MaxURLLength int
	// MaxPagesPerHost caps the URLs that enter one host's queue. [no limit]
	MaxPagesPerHost int
	// MaxQueryVariants caps the different query strings followed for one
	// path: a calendar or a faceted search makes endless ones. [1000;
	// negative: no limit]
	MaxQueryVariants int
	// AllBodies reads every response body; by default only HTML bodies
	// are, and the rest is skipped as soon as the head says what it is.
	AllBodies bool

	// Politeness: per server, http and https together.

	PerHost   int           // requests in flight per server, at most [8]
	Delay     time.Duration // minimum spacing between request starts per server [0]
	Jitter    bool          // add up to 50% random extra to each spacing
	UserAgent string        // names us and our operator [loopkit/0.1 (+…)]
	NoRobots  bool          // ignore robots.txt (only for sites that are yours)
	// MaxCrawlDelay caps a robots.txt Crawl-delay. [30s]
	MaxCrawlDelay time.Duration
	// MaxRetryAfter is the longest Retry-After the crawler waits for. A
	// host asking for longer is given up, and its URLs recorded with why:
	// a wait is never silently shortened. [10m]
	MaxRetryAfter time.Duration
	// BackoffBase is the first retry's backoff, doubled each retry. [500ms]
	BackoffBase time.Duration
	// Grace is how long in-flight fetches may finish after an interrupt
	// before they are cancelled. [5s]
	Grace time.Duration
	// HTTP configures the client: timeouts and limits. Its UserAgent and
	// MaxConnsPerHost are set from the fields above.
	HTTP http1.Options

	// Parsing off the loop (parsepool.go).

	// ParseWorkers are the goroutines that parse pages off the loop.
	// [GOMAXPROCS; negative: none, every page is parsed on the loop, as
	// the chapter's crawler did]
	ParseWorkers int
	// ParseInlineBelow is the body size under which a page is parsed on
	// the loop all the same, because its trip to a worker would cost more
	// than its parsing. [4 KiB: see parsepool.go for the measurement]
	ParseInlineBelow int
	// ParseBudget is how many bytes of bodies may await parsing before the
	// frontier stops handing out jobs until the workers catch up. [8 MiB]
	ParseBudget int

	// Memory, disk and other processes: what makes a crawl outlive its
	// memory, its process or its machine (extension.go).

	// QueueMemory is how many queued URLs the crawl keeps in memory;
	// past it, the later URLs of long host queues wait on disk (spill.go)
	// and come back in order. [100000, about 10 MB; negative: no limit]
	QueueMemory int
	// SeenMemory is how many URLs the seen set keeps in memory; past it,
	// they go to disk, sorted, and links memory does not know are
	// checked there in batches (seen.go). [1000000, about 12 MB;
	// negative: no limit, as a fleet's process has: the fleet keeps the
	// crawl's]
	SeenMemory int
	// ReportURLs is the most URLs a crawl may record and still have the
	// chapter's per-URL report. Past it, no record is kept (OnRecord
	// hears of each, and Output has them all), and the report gives the
	// tallies. [10000; negative: no per-URL report at all]
	ReportURLs int
	// Output, if set, is the JSON Lines file each record is written to,
	// a line per record, in batches handed to the executor: a file, a
	// pipe or a device. With State, it is appended to, and the journal
	// says which of its lines are done (what it does not vouch for is
	// cut at the next start); with Shared, it is appended to (the fleet
	// has settled what it holds).
	Output string
	// State, if set, is the state directory of a crawl that survives a
	// stop, a power cut included (package crawler/journal): run again
	// with the same State, the crawl goes on where it was. StateReuse
	// lets a run go on with a directory whose crawl had other roots,
	// filters or Output — its queued URLs then pass this run's filters —
	// or whose journal is gone: the crawl starts again from its roots.
	State      string
	StateReuse bool
	// Shared, if set, shares the crawl with other processes (package
	// crawler/fleet): links found go to it, and the URLs this process is
	// to fetch come from it (Crawler.Offer). The crawl ends when it says
	// so (Crawler.End). A shared crawl runs on one loop per process.
	Shared Shared

	// Callbacks. A Group calls them from every loop, one at a time.

	// OnRecord, if set, hears of each record as it is made.
	OnRecord func(*Record)
	// OnDisallowed, if set, hears of each URL robots.txt disallows.
	OnDisallowed func(url string)
	// OnAttempt, if set, hears of every request the crawler makes,
	// robots.txt and retries included, with its connection and phases:
	// what a timeline is drawn from. Left nil, it costs nothing.
	OnAttempt func(*Attempt)
	// OnParse, if set, hears of every page a parse worker parsed (pages
	// parsed on the loop are part of its callbacks). It is called on the
	// worker's goroutine, by several workers at once: it must be safe
	// for that. Left nil, it costs a nil check per page.
	OnParse func(ParseEvent)
	// OnNotice, if set, hears what the operator should know, once each:
	// a host given up, a trap limit reached.
	OnNotice func(msg string)
}

// A ConfigError says that a setting of Config could not be used: an
// output file or a state directory that cannot be opened, read or
// written. Field is the Config field's name ("State", "Output").
type ConfigError struct {
	Field string
	Err   error
}

func (e *ConfigError) Error() string { return "Config." + e.Field + ": " + e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// DefaultUserAgent names the project and how to reach whoever runs it.
// Operators should set their own contact in Config.UserAgent.
const DefaultUserAgent = "loopkit/0.1 (+https://example.invalid/loopkit; educational crawler)"

func (c Config) withDefaults() Config {
	if c.MaxTasks <= 0 {
		c.MaxTasks = 100
	}
	if c.MaxRedirect < 0 {
		c.MaxRedirect = 0
	} else if c.MaxRedirect == 0 {
		c.MaxRedirect = 10
	}
	if c.MaxTries <= 0 {
		c.MaxTries = 4
	}
	if c.PerHost <= 0 {
		c.PerHost = 8
	}
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent
	}
	if c.MaxCrawlDelay <= 0 {
		c.MaxCrawlDelay = 30 * time.Second
	}
	if c.BackoffBase <= 0 {
		c.BackoffBase = 500 * time.Millisecond
	}
	if c.Grace <= 0 {
		c.Grace = 5 * time.Second
	}
	if c.MaxRetryAfter <= 0 {
		c.MaxRetryAfter = 10 * time.Minute
	}
	if c.MaxURLLength <= 0 {
		c.MaxURLLength = 2083
	}
	if c.QueueMemory == 0 {
		c.QueueMemory = 100000
	}
	if c.SeenMemory == 0 {
		c.SeenMemory = 1000000
	}
	if c.ReportURLs == 0 {
		c.ReportURLs = 10000
	} else if c.ReportURLs < 0 {
		c.ReportURLs = 0
	}
	if c.MaxQueryVariants == 0 {
		c.MaxQueryVariants = 1000
	}
	if c.ParseWorkers == 0 {
		c.ParseWorkers = runtime.GOMAXPROCS(0)
	}
	if c.ParseInlineBelow <= 0 {
		c.ParseInlineBelow = 4 << 10
	}
	if c.ParseBudget <= 0 {
		c.ParseBudget = 8 << 20
	}
	c.HTTP.UserAgent = c.UserAgent
	// The frontier never has more than PerHost requests in flight to a
	// server, robots.txt included, over either scheme; the pools' cap only
	// backs it up, so requests wait in the frontier, where it is visible,
	// not in a pool.
	c.HTTP.MaxConnsPerHost = c.PerHost
	return c
}

// ParseRoot turns a command-line root into a normalized URL. A root with
// no scheme gets http://.
func ParseRoot(root string) (*url.URL, error) {
	root = strings.TrimSpace(root)
	if root == "" {
		return nil, errors.New("empty root")
	}
	if !strings.Contains(root, "://") {
		root = "http://" + root
	}
	norm, err := urlnorm.Normalize(root)
	if err != nil {
		return nil, fmt.Errorf("invalid root %q: %w", root, err)
	}
	u, err := url.Parse(norm)
	if err != nil || u.Host == "" || !urlnorm.Crawlable(u) {
		return nil, fmt.Errorf("invalid root %q: not an http or https URL with a host", root)
	}
	return u, nil
}
