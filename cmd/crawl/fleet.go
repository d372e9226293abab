package main

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"loopkit/crawler"
	"loopkit/crawler/fleet"
	"loopkit/loop"
	"loopkit/task"
)

// joinFleet, with --redis, joins the crawl named by --crawl_id on Redis,
// from loop l: the crawl is created with this process's settings and
// politeness, or this process's are checked against it. With no ROOT,
// the process waits for the crawl to be started, and takes its roots.
func joinFleet(o *options, l *loop.Loop, notice func(string, ...any)) (*fleet.Fleet, error) {
	settings := crawler.SettingsOf(o.cfg)
	settings.Output = "" // each process writes its own
	f, err := fleet.New(fleet.Options{Redis: o.redis, CrawlID: o.crawlID, Shards: o.shards, Lease: o.lease,
		Settings: settings, Politeness: crawler.PolitenessOf(o.cfg),
		Notice: func(msg string) { notice("%s", flagWords.Replace(msg)) }})
	if err != nil {
		return nil, err
	}
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) }); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// fleetReport prints the crawl's counts kept in Redis, over every
// process, after this process's own report.
func fleetReport(f *fleet.Fleet, l *loop.Loop, w io.Writer, pages int) {
	tallies, err := task.Run(l, func(y task.Yield) (map[string]int, error) { return f.Tallies(y) })
	fmt.Fprintln(w, "*** Fleet ***")
	if err != nil {
		fmt.Fprintf(w, "(the fleet's counts could not be read: %v)\n", err)
		return
	}
	for _, k := range slices.Sorted(maps.Keys(tallies)) {
		fmt.Fprintf(w, "%10d %s\n", tallies[k], k)
	}
	s := f.Stats
	fmt.Fprintf(w, "This process: %d taken, %d settled, %d links found (%d new to the fleet, %d over a host's share), %d leases taken, %d lost, %d given back, %d pages done here but settled elsewhere\n",
		s.Taken, s.Settled, s.Found, s.New, s.Capped, s.Acquired, s.LostLease, s.GivenBack, s.Fenced)
	perPage := ""
	if pages > 0 {
		perPage = fmt.Sprintf(", %.2f per page fetched here", float64(f.Commands())/float64(pages))
	}
	fmt.Fprintf(w, "Redis: %d commands sent, %d of them steps%s\n", f.Commands(), s.Steps, perPage)
}
