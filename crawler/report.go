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
	records    []*Record  // every record, if listed
	disallowed []string   // likewise
	listed     bool       // the crawl was small enough to list every URL
	watch      *rootWatch // the roots' records and where they led
	stats      Stats
	todo       int
	elapsed    time.Duration
}

func (c *Crawler) view() view {
	return view{cfg: c.cfg, roots: c.rootURLs, records: c.records, disallowed: c.disallowed,
		listed: c.listed.complete(), watch: c.roots, stats: c.Stats(), todo: c.Todo(), elapsed: c.Elapsed()}
}

func (c view) report(w io.Writer) {
	elapsed := c.elapsed
	fmt.Fprintln(w, "*** Report ***")
	if c.listed {
		records := slices.Clone(c.records)
		slices.SortStableFunc(records, func(a, b *Record) int { return strings.Compare(a.URL, b.URL) })
		fmt.Fprintln(w, "(url status type encoding bytes new/total: new = links not seen before, total = links that passed the filters)")
		for _, r := range records {
			// A line holds what servers chose (a Content-Type, an error
			// quoting a certificate): escaped, it cannot drive the terminal.
			fmt.Fprintln(w, printable.Escape(reportLine(r)))
		}
	} else {
		fmt.Fprintf(w, "(%d urls: a line per url is listed for crawls of at most %d; the JSON Lines output has every record)\n",
			c.stats.Done, c.cfg.ReportURLs)
	}
	speed := 0.0
	if secs := elapsed.Seconds(); secs > 0 {
		speed = float64(c.stats.Done) / secs / float64(c.cfg.MaxTasks)
	}
	fmt.Fprintf(w, "Finished %d urls in %.3f secs (max_tasks=%d) (%.3f urls/sec/task)\n",
		c.stats.Done, elapsed.Seconds(), c.cfg.MaxTasks, speed)
	tally := maps.Clone(c.stats.Kinds)
	if tally == nil {
		tally = map[string]int{}
	}
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
	if c.listed && len(c.disallowed) > 0 {
		fmt.Fprintln(w, "Disallowed by robots.txt:")
		for _, u := range slices.Sorted(slices.Values(c.disallowed)) {
			fmt.Fprintln(w, "  "+u)
		}
	}
	if c.stats.Interrupted {
		fmt.Fprintln(w, "Interrupted")
	}
	fmt.Fprintln(w, "Todo:", c.todo)
	fmt.Fprintln(w, "Done:", c.stats.Done)
	fmt.Fprintln(w, "Date:", time.Now().Format(time.ANSIC), "local time")
}

// reportLine formats one record as the chapter's url_report does.
func reportLine(r *Record) string {
	kind := r.kind()
	var line string
	switch kind {
	case kindFetchError:
		return fmt.Sprintf("%s error %s", r.URL, *r.Exception)
	case kindRedirect:
		line = fmt.Sprintf("%s %d redirect %s", r.URL, *r.Status, *r.NextURL)
	case kindHTTPError:
		line = fmt.Sprintf("%s %d %s %s %d", r.URL, *r.Status, r.ContentType, r.Encoding, r.Size)
	default:
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

// Stats are the crawl's running counts, for the progress line and the report.
type Stats struct {
	Done             int            // records made
	Fetched          int            // records with a response
	Errors           int            // records with an exception
	Retries          int            // attempts after the first
	SlowDowns        int            // times a host's pace was cut by pushback
	InFlight         int            // requests on the wire now
	Queued           int            // URLs waiting in their hosts' queues
	QueuedPeak       int            // the most that ever waited at once in memory (a Group: added over its loops)
	Spilled          int            // queued URLs waiting on disk (Config.QueueMemory)
	Seen             SeenStats      // the seen set past Config.SeenMemory
	WaitingForHost   int            // of those, in hosts that may not send now
	Cancelled        int            // in flight when an interrupt cancelled them: to do
	RobotsFetches    int            // robots.txt requests (not pages: no records)
	RobotsDisallowed int            // URLs robots.txt kept us from
	Filtered         map[string]int // links not followed, by reason
	Kinds            map[string]int // records by kind: ok, redirect, http_error:404, fetch_error:timeout, ok_bytes...
	Interrupted      bool           // Interrupt was called
	ParsedOffLoop    int            // pages parsed by the parse workers, not on a loop (the crawl's)
	ParseBacklogPeak int            // the most bytes of bodies that awaited parsing at once (the crawl's)
}

// Stats returns the current counts.
func (c *Crawler) Stats() Stats {
	s := c.stats
	s.Filtered = maps.Clone(c.stats.Filtered)
	s.Kinds = maps.Clone(c.stats.Kinds)
	s.ParsedOffLoop, s.ParseBacklogPeak = c.parser.stats()
	s.Queued = c.front.Queued()
	s.QueuedPeak = c.front.QueuedPeak()
	s.Spilled, s.Seen = c.onDisk()
	s.WaitingForHost = c.front.Waiting(c.loop.Time())
	return s
}

// SeenStats say what the seen set did on disk, past Config.SeenMemory.
type SeenStats struct {
	OnDisk  int // URLs its files hold
	Asked   int // links memory could not tell of, asked of the disk
	Repeats int // of those, found seen there
	Passes  int // batches checked, each one pass over the files
	Waiting int // links waiting for their answer now: to do, perhaps
}

func (s SeenStats) add(t SeenStats) SeenStats {
	return SeenStats{OnDisk: s.OnDisk + t.OnDisk, Asked: s.Asked + t.Asked, Repeats: s.Repeats + t.Repeats,
		Passes: s.Passes + t.Passes, Waiting: s.Waiting + t.Waiting}
}

// Add is s and t counted together: a Group's shards, say.
func (s Stats) Add(t Stats) Stats {
	s.Done += t.Done
	s.Fetched += t.Fetched
	s.Errors += t.Errors
	s.Retries += t.Retries
	s.SlowDowns += t.SlowDowns
	s.InFlight += t.InFlight
	s.Queued += t.Queued
	s.QueuedPeak += t.QueuedPeak
	s.Spilled += t.Spilled
	s.Seen = s.Seen.add(t.Seen)
	s.WaitingForHost += t.WaitingForHost
	s.Cancelled += t.Cancelled
	s.RobotsFetches += t.RobotsFetches
	s.RobotsDisallowed += t.RobotsDisallowed
	if s.Filtered == nil {
		s.Filtered = make(map[string]int)
	}
	for k, v := range t.Filtered {
		s.Filtered[k] += v
	}
	if s.Kinds == nil {
		s.Kinds = make(map[string]int)
	}
	for k, v := range t.Kinds {
		s.Kinds[k] += v
	}
	s.Interrupted = s.Interrupted || t.Interrupted
	// The parse pool is the crawl's, one for every loop: each shard
	// reports the same counts, read at slightly different times.
	s.ParsedOffLoop = max(s.ParsedOffLoop, t.ParsedOffLoop)
	s.ParseBacklogPeak = max(s.ParseBacklogPeak, t.ParseBacklogPeak)
	return s
}

// FailedRoots says which roots could not be crawled, and why: no answer,
// an error status, or robots.txt forbidding or hiding it — following the
// root's redirects to where they lead. A root left unfetched by an
// interrupt or the page budget is not a failure, and neither is one whose
// redirect leaves the crawl's scope.
func (c *Crawler) FailedRoots() []string { return c.view().failedRoots() }

func (c view) failedRoots() []string {
	var failed []string
	byURL := c.watch.byURL()
	for _, root := range c.roots {
		if why := c.rootFailure(root.String(), byURL); why != "" {
			failed = append(failed, root.String()+": "+why)
		}
	}
	return failed
}

func (c view) rootFailure(u string, byURL map[string]*Record) string {
	for hops := 0; hops <= c.cfg.MaxRedirect; hops++ {
		r := byURL[u]
		switch {
		case r == nil && c.watch.isDisallowed(u):
			return "disallowed by robots.txt"
		case r == nil:
			return ""
		case r.Status == nil:
			return *r.Exception
		case r.Exception != nil:
			return fmt.Sprintf("status %d: %s", *r.Status, *r.Exception)
		case r.NextURL != nil:
			u = *r.NextURL
			continue
		case *r.Status >= 400:
			return fmt.Sprintf("status %d", *r.Status)
		}
		return ""
	}
	return ""
}
