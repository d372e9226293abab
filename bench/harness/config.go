package harness

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Config is one invocation of the benchmark.
type Config struct {
	Scenarios []string // "S1".."S9"; empty means all
	Variants  []string // variant names; empty means all this OS can run
	// Rounds of S2 [10; quick: 1]; the other scenarios have their own
	// (see sizes), because their numbers hardly vary, or take long.
	Rounds int
	// Warmup and Duration of every timed run [1 s and 5 s].
	Warmup, Duration time.Duration
	// GOMAXPROCS of every client process [the processors a client may
	// use], and of the site process [the processors the site may use].
	GOMAXPROCS, SiteGOMAXPROCS int
	// Pin puts the site on the first processor and the clients on the
	// others, where the OS allows it and there are two or more ["auto"];
	// "off" lets both float over every processor.
	Pin         string
	Seed        uint64 // of the rounds' random order [the time]
	Quick       bool   // small counts and short runs: a smoke run of seconds
	Pages       int    // size of the site, crawled in S4 [10 000; quick: 300]
	S7Pages     []int  // the sizes S7 crawls [10k, 100k, 1M, 10M; quick: 10k], killed and resumed at its usual ones
	Poller      string // the reactor's poller: "epoll", "poll", "" for the best
	SyscallTool string // S5: "auto" (perf, else strace), "perf", "strace" or "none"
	ProfileDir  string // if set, every client run writes a CPU profile here
	Self        string // the executable to re-run as site and variant children
	Command     string // how the benchmark was invoked, for the report
	Progress    io.Writer
	// Skipped, filled in by Check, says which scenarios and variants will
	// not run, and why: "S5: ...". A smoke run says so (see LookAt).
	Skipped []string
}

// ScenarioIDs are all the scenarios, in the order they run: S6 comes
// after S2, whose capacities set its arrival rates.
var ScenarioIDs = []string{"S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9"}

// Check fills in defaults and rejects unknown names and impossible values.
func (c *Config) Check() error {
	if len(c.Scenarios) == 0 {
		c.Scenarios = ScenarioIDs
		if c.Quick {
			// perf costs a third of a second a run, twenty runs: a smoke run
			// counts system calls only when asked to (-scenarios S5).
			c.Scenarios = slices.DeleteFunc(slices.Clone(ScenarioIDs), func(s string) bool { return s == "S5" || s == "S9" })
			c.notRun("S5", "system calls per request. A smoke run skips it, because counting them "+
				"costs a third of a second a run; -scenarios S5 runs it.")
			c.notRun("S9", "the peers. A smoke run skips it, because it builds colly (bench/peers) "+
				"and crawls with Scrapy; -scenarios S9 runs it.")
		}
	}
	for _, s := range ScenarioIDs {
		if !slices.Contains(c.Scenarios, s) {
			c.notRun(s, "not among -scenarios.")
		}
	}
	for _, s := range c.Scenarios {
		if !slices.Contains(ScenarioIDs, s) {
			return fmt.Errorf("unknown scenario %q (known: %s)", s, strings.Join(ScenarioIDs, ", "))
		}
	}
	if len(c.Variants) == 0 {
		for _, name := range Names() {
			if name != floorEpoll || runtime.GOOS == "linux" {
				c.Variants = append(c.Variants, name)
			} else {
				c.notRun(name, "the raw epoll floor runs on Linux only.")
			}
		}
	}
	for _, v := range c.Variants {
		if _, err := Lookup(v); err != nil {
			return err
		}
	}
	switch {
	case c.Rounds < 0, c.GOMAXPROCS < 0, c.SiteGOMAXPROCS < 0, c.Pages < 0, c.Warmup < 0, c.Duration < 0:
		return fmt.Errorf("rounds, gomaxprocs, pages and durations must not be negative")
	case slices.ContainsFunc(c.S7Pages, func(n int) bool { return n < 10_000 || n > 100_000_000 }):
		return fmt.Errorf("S7's sizes must be between 10,000 and 100,000,000 pages, not %v", c.S7Pages)
	case c.Pin != "" && c.Pin != "auto" && c.Pin != "off":
		return fmt.Errorf("-pin is auto or off, not %q", c.Pin)
	case c.Self == "":
		return fmt.Errorf("no executable to run children with")
	}
	z := sizesFor(c.Quick)
	if c.Rounds == 0 {
		c.Rounds = z.rounds
	}
	if c.Warmup == 0 {
		c.Warmup = z.warmup
	}
	if c.Duration == 0 {
		c.Duration = z.duration
	}
	if c.Pages == 0 {
		c.Pages = z.pages
	}
	if c.Pin == "" {
		c.Pin = "auto"
	}
	if c.Seed == 0 {
		c.Seed = uint64(time.Now().UnixNano())
	}
	if c.SyscallTool == "" {
		c.SyscallTool = "auto"
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
	return nil
}

// sizes are the counts, times and rounds of every scenario.
type sizes struct {
	pages            int
	rounds           int // S2
	warmup, duration time.Duration

	s1N, s1DelayMS, s1Rounds int
	s1C                      []int // 0 is unbounded

	s2C []int

	s3N, s3DelayMS, s3Rounds int

	s4C, s4Rounds int
	s4RealPages   int // S4's second site: real-size pages

	s5N, s5Small, s5C int

	s6C, s6Rounds int
	s6Fractions   []float64 // of the slowest variant's capacity

	s7Pages  []int // the sizes of the demo site the real crawler crawls, once each
	s7Hosts  int   // the hosts the site is split over
	s7Resume []int // the sizes also killed and resumed

	s8Pages, s8Pairs int
	s8Hosts          []int

	s9Pages, s9Hosts, s9Rounds int
}

func sizesFor(quick bool) sizes {
	if quick {
		return sizes{
			pages: 300, rounds: 1, warmup: 50 * time.Millisecond, duration: 200 * time.Millisecond,
			// S1's delay is long enough for six requests to be in flight at
			// once on a loaded machine (10 ms was not: the server saw 5).
			s1N: 6, s1DelayMS: 100, s1Rounds: 1, s1C: []int{2, 0},
			s2C: []int{16},
			s3N: 100, s3DelayMS: 250, s3Rounds: 1,
			s4C: 8, s4Rounds: 1, s4RealPages: 100,
			s5N: 2000, s5Small: 200, s5C: 16,
			s6C: 16, s6Rounds: 1, s6Fractions: []float64{0.5},
			s7Pages: []int{10_000}, s7Hosts: 20, s7Resume: []int{10_000},
			s8Pages: 2_000, s8Pairs: 1, s8Hosts: []int{1, 20, 200},
			s9Pages: 2_000, s9Hosts: 20, s9Rounds: 1,
		}
	}
	return sizes{
		pages: 10_000, rounds: 10, warmup: time.Second, duration: 5 * time.Second,
		// S1 checks a theory that does not vary: one round is enough.
		s1N: 60, s1DelayMS: 200, s1Rounds: 1, s1C: []int{1, 5, 10, 20, 0},
		s2C: []int{64, 256},
		// 10 000 connections take seconds to open (the accept backlog
		// overflows and SYNs are retried after 1 s and 3 s); the site holds
		// each request 10 s, so that all are open together for a while.
		s3N: 10_000, s3DelayMS: 10_000, s3Rounds: 3,
		s4C: 64, s4Rounds: 5, s4RealPages: 600,
		s5N: 20_000, s5Small: 2_000, s5C: 64,
		// Percentiles pool thousands of requests per round: five rounds.
		s6C: 64, s6Rounds: 5, s6Fractions: []float64{0.5, 0.9},
		// A million pages take about a minute, ten million about six, and
		// the crawl's figures are of one long run, not of many short ones:
		// once each. Killed and resumed at 100,000, with a journal and
		// queues that fit in memory, at a million, where they do not, and
		// at ten million, whose seen set is on disk too.
		s7Pages: []int{10_000, 100_000, 1_000_000, 10_000_000}, s7Hosts: 20,
		s7Resume: []int{100_000, 1_000_000, 10_000_000},
		// Five pairs per host count, each run a few seconds: a default that
		// costs more than a few percent shows in every pair.
		s8Pages: 30_000, s8Pairs: 5, s8Hosts: []int{1, 20, 200},
		// The 20,000-page demo over 20 hosts that the peers were first
		// measured on by hand; three rounds, in a random order each.
		s9Pages: 20_000, s9Hosts: 20, s9Rounds: 3,
	}
}
