package main

import (
	"errors"
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
// from loop l: the crawl is created with this process's settings, or
// this process's are checked against it. With no ROOT, the process takes
// the crawl's roots.
func joinFleet(o *options, l *loop.Loop, notice func(string, ...any)) (*fleet.Fleet, error) {
	settings := crawler.SettingsOf(o.cfg)
	settings.Output = "" // each process writes its own
	f, err := fleet.New(fleet.Options{Redis: o.redis, CrawlID: o.crawlID, Shards: o.shards, Lease: o.lease,
		Settings: settings, Notice: func(msg string) { notice("%s", msg) }})
	if err != nil {
		return nil, err
	}
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) }); err != nil {
		f.Close()
		return nil, err
	}
	if len(f.Roots()) == 0 {
		f.Close()
		return nil, errors.New("--crawl_id " + o.crawlID + ": no such crawl yet; give its ROOTs to start it")
	}
	return f, nil
}

// fleetReport prints the crawl's counts kept in Redis, over every
// process, after this process's own report.
func fleetReport(f *fleet.Fleet, l *loop.Loop, w io.Writer) {
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
	fmt.Fprintf(w, "This process: %d taken, %d settled, %d links found (%d new to the fleet), %d leases taken, %d lost, %d pages done here but settled elsewhere\n",
		s.Taken, s.Settled, s.Found, s.New, s.Acquired, s.LostLease, s.Fenced)
}
