package site

import (
	"errors"
	"fmt"
	"time"
)

// Config sets the size and shape of the site. The zero value is usable: each zero
// field takes its default.
type Config struct {
	// Pages is the approximate number of HTML pages (default 200). Books make up most
	// of them; the category lists, the home page and the fixed pages are the rest.
	// A host serves at most a million of them: a bigger site is split over more
	// hosts (Hosts), as the web's pages are spread over its servers.
	Pages int
	// FanOut is the number of books on one category list page (default 20).
	FanOut int
	// Depth is the number of list pages per category, i.e. how long each chain of
	// "next" links is (default 3). A breadth-first crawl goes Depth+2 levels down, so
	// Depth trades a wide, shallow site for a narrow, deep one.
	Depth int
	// Seed picks titles, which category lists which book and which books are related.
	// Sites with equal Configs are identical.
	Seed int64
	// CrawlDelay, when positive, is announced in robots.txt as "Crawl-delay" for every
	// agent. It is off by default so that crawls run at full speed.
	CrawlDelay time.Duration
	// PageBytes, when positive, pads every book page with prose and links
	// to at least this many bytes of HTML (prose.go): real documentation's
	// 30–100 KB instead of the shop's 1–2 KB. The link graph is the same.
	PageBytes int
	// Hosts splits the site over this many hosts (default 1), served on consecutive
	// ports from the one Start is given: host h listens on port+h. Every page belongs
	// to exactly one host (hosts.go says which), and a link to a page on another host
	// is an absolute URL with that host's port. The same Config on the same ports is
	// the same site, so a crawl stopped and started again finds the same URLs.
	Hosts int
	// TrackPaths is how many distinct paths the per-path counters track
	// before counting the rest as "(other)" [131072]: raise it to check
	// a big crawl URL by URL from the server's side.
	TrackPaths int
	// Public allows Start to listen on a non-loopback address. Off by default: a test
	// site should never be reachable from another machine by accident.
	Public bool
}

// ErrConfig is wrapped by every error that Start returns for a bad Config or address,
// as opposed to a failure to listen.
var ErrConfig = errors.New("site: invalid configuration")

// Limits that keep a typo from allocating a site the size of the web. A site keeps
// 8 bytes a book in memory (catalogue.go), 800 MB at maxPages.
const (
	maxPages        = 100_000_000
	maxPagesPerHost = 1_000_000 // so that a host's front page, which lists its categories, stays a page
	maxFanOut       = 1000
	maxDepth        = 1000
	maxBytes        = 4 << 20
	maxHosts        = 1000
)

// withDefaults returns cfg with zero fields replaced by their defaults, or an error
// when a field is out of range.
func (cfg Config) withDefaults() (Config, error) {
	if cfg.Pages == 0 {
		cfg.Pages = 200
	}
	if cfg.FanOut == 0 {
		cfg.FanOut = 20
	}
	if cfg.Depth == 0 {
		cfg.Depth = 3
	}
	if cfg.Hosts == 0 {
		cfg.Hosts = 1
	}
	// One error at a time, on one line: cmd/site prints it as is.
	switch {
	case cfg.Pages < 1 || cfg.Pages > maxPages:
		return cfg, fmt.Errorf("%w: pages must be between 1 and %d, not %d", ErrConfig, maxPages, cfg.Pages)
	case cfg.Hosts >= 1 && cfg.Pages > maxPagesPerHost*cfg.Hosts:
		return cfg, fmt.Errorf("%w: %d pages over %d host(s) is more than a million a host: split the site over at least %d hosts",
			ErrConfig, cfg.Pages, cfg.Hosts, (cfg.Pages+maxPagesPerHost-1)/maxPagesPerHost)
	case cfg.FanOut < 1 || cfg.FanOut > maxFanOut:
		return cfg, fmt.Errorf("%w: fan-out must be between 1 and %d, not %d", ErrConfig, maxFanOut, cfg.FanOut)
	case cfg.Depth < 1 || cfg.Depth > maxDepth:
		return cfg, fmt.Errorf("%w: depth must be between 1 and %d, not %d", ErrConfig, maxDepth, cfg.Depth)
	case cfg.PageBytes < 0 || cfg.PageBytes > maxBytes:
		return cfg, fmt.Errorf("%w: page bytes must be between 0 and %d, not %d", ErrConfig, maxBytes, cfg.PageBytes)
	case cfg.Hosts < 1 || cfg.Hosts > maxHosts:
		return cfg, fmt.Errorf("%w: hosts must be between 1 and %d, not %d", ErrConfig, maxHosts, cfg.Hosts)
	case cfg.TrackPaths < 0 || cfg.TrackPaths > maxPages:
		return cfg, fmt.Errorf("%w: tracked paths must be between 0 and %d, not %d", ErrConfig, maxPages, cfg.TrackPaths)
	case cfg.CrawlDelay < 0:
		return cfg, fmt.Errorf("%w: crawl delay must not be negative, not %v", ErrConfig, cfg.CrawlDelay)
	}
	return cfg, nil
}
