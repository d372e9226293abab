package crawler

import (
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"loopkit/internal/printable"
)

// Report writes the chapter's report: a line per URL in URL order, the
// speed, the tallies, what robots.txt kept out, what is left and what is
// done.
//
//	*** Report ***
//	(url status type encoding bytes new/total: new = links not seen before, total = links that passed the filters)
//	http://127.0.0.1:8080/ 200 text/html utf-8 2154 12/12
//	http://127.0.0.1:8080/old/3 301 redirect http://127.0.0.1:8080/catalogue/...
//	http://127.0.0.1:8080/gone error http1: read timeout after 30s
//	Finished 3 urls in 0.012 secs (max_tasks=100) (2.500 urls/sec/task)
//	         1 ok
//	...
func (c *Crawler) Report(w io.Writer) { c.view().report(w) }

// view is what a report is made of: one crawler's, or a Group's merged.
type view struct {
	cfg        Config
	roots      []*url.URL
	records    []*Record
	disallowed []string
	stats      Stats
	todo       int
	elapsed    time.Duration
}

func (c *Crawler) view() view {
	return view{cfg: c.cfg, roots: c.roots, records: c.records, disallowed: c.disallowed,
		stats: c.stats, todo: c.Todo(), elapsed: c.Elapsed()}
}

func (c view) report(w io.Writer) {
	elapsed := c.elapsed
	records := slices.Clone(c.records)
	slices.SortStableFunc(records, func(a, b *Record) int { return strings.Compare(a.URL, b.URL) })
	tally := map[string]int{}
	fmt.Fprintln(w, "*** Report ***")
	fmt.Fprintln(w, "(url status type encoding bytes new/total: new = links not seen before, total = links that passed the filters)")
	for _, r := range records {
		// A line holds what servers chose (a Content-Type, an error
		// quoting a certificate): escaped, it cannot drive the terminal.
		fmt.Fprintln(w, printable.Escape(reportLine(r, tally)))
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
	tally["slow_downs"] = c.stats.SlowDowns
	for reason, n := range c.stats.Filtered {
		tally["filtered"] += n
		tally["filtered:"+reason] = n
	}
	for _, key := range slices.Sorted(maps.Keys(tally)) {
		fmt.Fprintf(w, "%10d %s\n", tally[key], key)
	}
	if len(c.disallowed) > 0 {
		fmt.Fprintln(w, "Disallowed by robots.txt:")
		for _, u := range slices.Sorted(slices.Values(c.disallowed)) {
			fmt.Fprintln(w, "  "+u)
		}
	}
	if c.stats.Interrupted {
		fmt.Fprintln(w, "Interrupted")
	}
	fmt.Fprintln(w, "Todo:", c.todo)
	fmt.Fprintln(w, "Done:", len(records))
	fmt.Fprintln(w, "Date:", time.Now().Format(time.ANSIC), "local time")
}

// reportLine formats one record as the chapter's url_report does, and
// counts it in tally: ok, redirect, http_error (and http_error:404),
// fetch_error (and fetch_error:timeout, ...).
func reportLine(r *Record, tally map[string]int) string {
	kind := r.kind()
	tally[kind]++
	var line string
	switch kind {
	case kindFetchError:
		tally[kindFetchError+":"+r.ErrorKind]++
		return fmt.Sprintf("%s error %s", r.URL, *r.Exception)
	case kindRedirect:
		line = fmt.Sprintf("%s %d redirect %s", r.URL, *r.Status, *r.NextURL)
	case kindHTTPError:
		tally[fmt.Sprintf("%s:%d", kindHTTPError, *r.Status)]++
		line = fmt.Sprintf("%s %d %s %s %d", r.URL, *r.Status, r.ContentType, r.Encoding, r.Size)
	default:
		tally[kindOK+"_bytes"] += r.Size
		line = fmt.Sprintf("%s %d %s %s %d", r.URL, *r.Status, r.ContentType, r.Encoding, r.Size)
		if r.ContentType == "text/html" || r.ContentType == "application/xhtml+xml" {
			line += fmt.Sprintf(" %d/%d", r.NumNewURLs, r.NumURLs)
		}
	}
	if r.BodySkipped && kind == kindOK {
		line += " (body not read)" // a redirect's or an error's body is never wanted
	}
	if r.Exception != nil {
		line += " (" + *r.Exception + ")"
	}
	return line
}
