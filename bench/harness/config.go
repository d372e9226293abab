package harness

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Config is one invocation of the benchmark.
type Config struct {
	Scenarios []string // "S1".."S5"; empty means all
	Variants  []string // variant names; empty means all
	Runs      int      // runs of every variant in every case [3]
	// GOMAXPROCS of every client process [2], and of the site process
	// [the number of CPUs]. Clients and site share the machine.
	GOMAXPROCS, SiteGOMAXPROCS int
	Quick                      bool   // small counts: a smoke run of a few seconds
	Pages                      int    // size of the site, crawled in S4 [10 000; quick: 300]
	Poller                     string // the reactor's poller: "epoll", "poll", "" for the best
	SyscallTool                string // S5: "auto" (perf, else strace), "perf", "strace" or "none"
	ProfileDir                 string // if set, every client run writes a CPU profile here
	Self                       string // the executable to re-run as site and variant children
	Command                    string // how the benchmark was invoked, for the report
	Progress                   io.Writer
}

// ScenarioIDs are all the scenarios, in order.
var ScenarioIDs = []string{"S1", "S2", "S3", "S4", "S5"}

// Check fills in defaults and rejects unknown names and impossible values.
func (c *Config) Check() error {
	if len(c.Scenarios) == 0 {
		c.Scenarios = ScenarioIDs
	}
	for _, s := range c.Scenarios {
		if !slices.Contains(ScenarioIDs, s) {
			return fmt.Errorf("unknown scenario %q (known: %s)", s, strings.Join(ScenarioIDs, ", "))
		}
	}
	if len(c.Variants) == 0 {
		c.Variants = Names()
	}
	for _, v := range c.Variants {
		if _, err := Lookup(v); err != nil {
			return err
		}
	}
	switch {
	case c.Runs < 0, c.GOMAXPROCS < 0, c.SiteGOMAXPROCS < 0, c.Pages < 0:
		return fmt.Errorf("runs, gomaxprocs and pages must not be negative")
	case c.Self == "":
		return fmt.Errorf("no executable to run children with")
	}
	if c.Runs == 0 {
		c.Runs = 3
	}
	if c.GOMAXPROCS == 0 {
		c.GOMAXPROCS = 2
	}
	if c.Pages == 0 {
		c.Pages = sizesFor(c.Quick).pages
	}
	if c.SyscallTool == "" {
		c.SyscallTool = "auto"
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
	return nil
}

// sizes are the counts of every scenario.
type sizes struct {
	pages int

	s1N, s1DelayMS int
	s1C            []int // 0 is unbounded

	s2N int
	s2C []int

	s3N, s3Base, s3DelayMS int

	s4C int

	s5N, s5Small, s5C int
}

func sizesFor(quick bool) sizes {
	if quick {
		return sizes{
			pages: 300,
			s1N:   6, s1DelayMS: 20, s1C: []int{1, 2, 0},
			s2N: 2000, s2C: []int{16},
			s3N: 200, s3Base: 20, s3DelayMS: 300,
			s4C: 8,
			s5N: 2000, s5Small: 200, s5C: 16,
		}
	}
	return sizes{
		pages: 10_000,
		s1N:   60, s1DelayMS: 200, s1C: []int{1, 5, 10, 20, 0},
		s2N: 100_000, s2C: []int{64, 256},
		s3N: 10_000, s3Base: 100, s3DelayMS: 2000,
		s4C: 64,
		s5N: 20_000, s5Small: 2_000, s5C: 64,
	}
}
