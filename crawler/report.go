package crawler

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"time"
)

// Report writes the chapter's report: a line per URL in URL order, the
// speed, the tallies, what is left and what is done.
//
//	*** Report ***
//	http://127.0.0.1:8080/ 200 text/html utf-8 2154 12/12
//	http://127.0.0.1:8080/old/3 301 redirect http://127.0.0.1:8080/catalogue/...
//	http://127.0.0.1:8080/gone error http1: read timeout after 30s
//	Finished 3 urls in 0.012 secs (max_tasks=100) (2.500 urls/sec/task)
//	...
func (c *Crawler) Report(w io.Writer) {
	elapsed := c.Elapsed()
	records := slices.Clone(c.records)
	slices.SortStableFunc(records, func(a, b *Record) int {
		switch {
		case a.URL < b.URL:
			return -1
		case a.URL > b.URL:
			return 1
		}
		return 0
	})
	tally := map[string]int{}
	fmt.Fprintln(w, "*** Report ***")
	for _, r := range records {
		fmt.Fprintln(w, reportLine(r, tally))
	}
	speed := 0.0
	if secs := elapsed.Seconds(); secs > 0 {
		speed = float64(len(records)) / secs / float64(c.cfg.MaxTasks)
	}
	fmt.Fprintf(w, "Finished %d urls in %.3f secs (max_tasks=%d) (%.3f urls/sec/task)\n",
		len(records), elapsed.Seconds(), c.cfg.MaxTasks, speed)
	tally["robots_fetches"] = c.stats.RobotsFetches
	tally["robots_disallowed"] = c.stats.RobotsDisallowed
	tally["retries"] = c.stats.Retries
	for _, key := range slices.Sorted(maps.Keys(tally)) {
		fmt.Fprintf(w, "%10d %s\n", tally[key], key)
	}
	if c.stats.Interrupted {
		fmt.Fprintln(w, "Interrupted")
	}
	fmt.Fprintln(w, "Todo:", c.Todo())
	fmt.Fprintln(w, "Done:", len(records))
	fmt.Fprintln(w, "Date:", time.Now().Format(time.ANSIC), "local time")
}

// reportLine formats one record as the chapter's url_report does, and
// counts it in tally.
func reportLine(r *Record, tally map[string]int) string {
	kind := r.kind()
	tally[kind]++
	switch kind {
	case "fail":
		return fmt.Sprintf("%s error %s", r.URL, *r.Exception)
	case "redirect":
		line := fmt.Sprintf("%s %d redirect %s", r.URL, *r.Status, *r.NextURL)
		if r.Exception != nil {
			line += " (" + *r.Exception + ")"
		}
		return line
	case "html":
		tally["html_bytes"] += r.Size
		return fmt.Sprintf("%s %d %s %s %d %d/%d", r.URL, *r.Status, r.ContentType, r.Encoding, r.Size, r.NumNewURLs, r.NumURLs)
	case "other":
		tally["other_bytes"] += r.Size
	default:
		tally["error_bytes"] += r.Size
		tally[fmt.Sprintf("status_%d", *r.Status)]++
	}
	return fmt.Sprintf("%s %d %s %s %d", r.URL, *r.Status, r.ContentType, r.Encoding, r.Size)
}
