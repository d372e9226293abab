package crawler

import (
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// reportRecords are one record of each kind a report line tells apart.
func reportRecords() []*Record {
	return []*Record{
		{URL: "http://h/old", Status: ptr(301), NextURL: ptr("http://h/"), BodySkipped: true},
		{URL: "http://h/", Status: ptr(200), ContentType: "text/html", Encoding: "utf-8", Size: 100, NumURLs: 5, NumNewURLs: 3},
		{URL: "http://h/x", Status: ptr(200), ContentType: "application/xhtml+xml", Encoding: "utf-8", Size: 50, NumURLs: 4, NumNewURLs: 2},
		{URL: "http://h/doc.pdf", Status: ptr(200), ContentType: "application/pdf", Size: 1234, BodySkipped: true},
		{URL: "http://h/missing", Status: ptr(404), ContentType: "text/html", Encoding: "utf-8", Size: 10, NumURLs: 1, BodySkipped: true},
		{URL: "http://h/gone", Exception: ptr("read timeout"), ErrorKind: ErrorKindTimeout, Tries: 3},
		{URL: "http://h/bad", Status: ptr(200), ContentType: "text/html", Size: 7, Exception: ptr("parsing links: x"), ErrorKind: ErrorKindParse},
		{URL: "http://h/r", Status: ptr(302), NextURL: ptr("http://h/s"), Exception: ptr("redirect limit reached"), ErrorKind: ErrorKindRedirectLimit},
		{URL: "http://h/txt", Status: ptr(200), ContentType: "text/plain", Encoding: "latin-1", Size: 9},
	}
}

// The report, line by line: every kind of record, every tally, the
// disallowed URLs, the interrupt, what is left and what is done.
func TestReportListsEveryRecordAndTally(t *testing.T) {
	recs := reportRecords()
	kinds := map[string]int{}
	for _, r := range recs {
		tally(r, kinds)
	}
	v := view{
		cfg:        Config{MaxTasks: 4, ReportURLs: 100},
		records:    recs,
		disallowed: []string{"http://h/z", "http://h/a"},
		listed:     true,
		stats: Stats{Done: 9, Queued: 11, RobotsFetches: 2, RobotsDisallowed: 3, Retries: 4, SlowDowns: 1,
			Filtered: map[string]int{"scope": 5, "depth": 2}, Kinds: kinds, Interrupted: true},
		todo:    6,
		elapsed: 1500 * time.Millisecond,
	}
	var b strings.Builder
	v.report(&b)
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		"*** Report ***",
		"(url status type encoding bytes new/total: new = links not seen before, total = links that passed the filters)",
		"http://h/ 200 text/html utf-8 100 3/5",
		"http://h/bad 200 text/html  7 0/0 (parsing links: x)",
		"http://h/doc.pdf 200 application/pdf  1234 (body not read)",
		"http://h/gone error read timeout",
		"http://h/missing 404 text/html utf-8 10",
		"http://h/old 301 redirect http://h/",
		"http://h/r 302 redirect http://h/s (redirect limit reached)",
		"http://h/txt 200 text/plain latin-1 9",
		"http://h/x 200 application/xhtml+xml utf-8 50 2/4",
		"Finished 9 urls in 1.500 secs (max_tasks=4) (1.500 urls/sec/task)",
		"         1 fetch_error",
		"         1 fetch_error:timeout",
		"         7 filtered",
		"         2 filtered:depth",
		"         5 filtered:scope",
		"         1 http_error",
		"         1 http_error:404",
		"         5 ok",
		"      1400 ok_bytes",
		"         2 redirect",
		"         4 retries",
		"         3 robots_disallowed",
		"         2 robots_fetches",
		"         1 slow_downs",
		"Disallowed by robots.txt:",
		"  http://h/a",
		"  http://h/z",
		"Interrupted",
		"Todo: 6",
		"Done: 9",
	}
	if len(got) != len(want)+1 || !strings.HasPrefix(got[len(got)-1], "Date: ") {
		t.Fatalf("report:\n%s", b.String())
	}
	for i, line := range want {
		if got[i] != line {
			t.Errorf("line %d: %q, want %q", i, got[i], line)
		}
	}
}

// Past Config.ReportURLs the report says how many there were instead of
// listing them, and lists no disallowed URL either; an uninterrupted
// crawl does not say it was interrupted.
func TestReportOfABigCrawlListsNoURL(t *testing.T) {
	v := view{
		cfg:        Config{MaxTasks: 2, ReportURLs: 3},
		records:    reportRecords(),
		disallowed: []string{"http://h/z"},
		stats:      Stats{Done: 4},
		elapsed:    time.Second,
	}
	var b strings.Builder
	v.report(&b)
	report := b.String()
	for _, want := range []string{
		"*** Report ***\n(4 urls: a line per url is listed for crawls of at most 3; the JSON Lines output has every record)\n",
		"Finished 4 urls in 1.000 secs (max_tasks=2) (2.000 urls/sec/task)\n",
		"\nTodo: 0\nDone: 4\n",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	for _, not := range []string{"http://h/", "Disallowed", "Interrupted"} {
		if strings.Contains(report, not) {
			t.Errorf("report has %q:\n%s", not, report)
		}
	}
}

// What each record counts as: its kind, and its detail.
func TestTallyKinds(t *testing.T) {
	var got []string
	for _, r := range reportRecords() {
		kind, detail := Tally(r)
		got = append(got, kind+" "+detail)
	}
	want := []string{"redirect ", "ok ", "ok ", "ok ", "http_error http_error:404", "fetch_error fetch_error:timeout",
		"ok ", "redirect ", "ok "}
	if !slices.Equal(got, want) {
		t.Errorf("tallied %q, want %q", got, want)
	}
	for code, want := range map[int]string{100: "http_error", 199: "http_error", 204: "ok", 299: "ok", 300: "http_error", 500: "http_error"} {
		if kind, _ := Tally(&Record{Status: ptr(code)}); kind != want {
			t.Errorf("status %d tallied as %q, want %q", code, kind, want)
		}
	}
}

// A record is counted in Done, Fetched (it had a response) and Errors (it
// has an exception).
func TestRecordCounts(t *testing.T) {
	c := &Crawler{stats: Stats{Kinds: map[string]int{}}, roots: newRootWatch(nil), listed: &reportList{limit: 100}}
	for _, r := range reportRecords() {
		c.record(r)
	}
	if s := c.stats; s.Done != 9 || s.Fetched != 8 || s.Errors != 3 || len(c.records) != 9 {
		t.Errorf("done %d, fetched %d, errors %d, kept %d; want 9, 8, 3, 9", s.Done, s.Fetched, s.Errors, len(c.records))
	}
}

// The report lists every URL while there are at most ReportURLs of them,
// and none past that.
func TestReportListKeepsUpToItsLimit(t *testing.T) {
	l := &reportList{limit: 2}
	var got []bool
	for range 4 {
		got = append(got, l.keep())
		if want := len(got) <= 2; l.complete() != want {
			t.Errorf("after %d: complete %v", len(got), !want)
		}
	}
	if want := []bool{true, true, false, false}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
}

// Stats.Add counts every field of two shards together; the parse pool's,
// being the crawl's, are not added.
func TestStatsAddEveryField(t *testing.T) {
	a := Stats{Done: 1, Fetched: 2, Errors: 3, Retries: 4, SlowDowns: 5, InFlight: 6, Queued: 7, QueuedPeak: 8,
		Spilled: 9, Seen: SeenStats{OnDisk: 10, Asked: 11, Repeats: 12, Passes: 13, Waiting: 14},
		WaitingForHost: 15, Cancelled: 16, RobotsFetches: 17, RobotsDisallowed: 18,
		Filtered: map[string]int{"scope": 19}, Kinds: map[string]int{"ok": 20}, ParsedOffLoop: 21, ParseBacklogPeak: 22}
	b := Stats{Done: 100, Fetched: 200, Errors: 300, Retries: 400, SlowDowns: 500, InFlight: 600, Queued: 700, QueuedPeak: 800,
		Spilled: 900, Seen: SeenStats{OnDisk: 1000, Asked: 1100, Repeats: 1200, Passes: 1300, Waiting: 1400},
		WaitingForHost: 1500, Cancelled: 1600, RobotsFetches: 1700, RobotsDisallowed: 1800,
		Filtered: map[string]int{"scope": 1900, "depth": 1}, Kinds: map[string]int{"ok": 2000, "redirect": 1},
		Interrupted: true, ParsedOffLoop: 20, ParseBacklogPeak: 2200}
	got := a.Add(b)
	want := Stats{Done: 101, Fetched: 202, Errors: 303, Retries: 404, SlowDowns: 505, InFlight: 606, Queued: 707, QueuedPeak: 808,
		Spilled: 909, Seen: SeenStats{OnDisk: 1010, Asked: 1111, Repeats: 1212, Passes: 1313, Waiting: 1414},
		WaitingForHost: 1515, Cancelled: 1616, RobotsFetches: 1717, RobotsDisallowed: 1818,
		Filtered: map[string]int{"scope": 1919, "depth": 1}, Kinds: map[string]int{"ok": 2020, "redirect": 1},
		Interrupted: true, ParsedOffLoop: 21, ParseBacklogPeak: 2200}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("added\n%+v\nwant\n%+v", got, want)
	}
	if got := (Stats{}).Add(Stats{}); got.Interrupted || got.Filtered == nil || got.Kinds == nil {
		t.Errorf("nothing added to nothing: %+v", got)
	}
	if got := (Stats{Interrupted: true}).Add(Stats{}); !got.Interrupted {
		t.Errorf("one shard interrupted, the sum not")
	}
}

// FailedRoots follows each root's redirects, up to MaxRedirect hops, to
// what became of it.
func TestFailedRootsFollowRedirects(t *testing.T) {
	var roots []*url.URL
	for _, s := range []string{"http://h/err", "http://h/404", "http://h/moved", "http://h/no", "http://h/later",
		"http://h/half", "http://h/chain"} {
		u, _ := url.Parse(s)
		roots = append(roots, u)
	}
	w := newRootWatch(roots)
	for _, r := range []*Record{
		{URL: "http://h/err", Exception: ptr("connection refused")},
		{URL: "http://h/404", Status: ptr(404)},
		{URL: "http://h/moved", Status: ptr(301), NextURL: ptr("http://h/there")},
		{URL: "http://h/there", Status: ptr(200)},
		{URL: "http://h/half", Status: ptr(200), Exception: ptr("parsing links: x")},
		{URL: "http://h/chain", Status: ptr(302), NextURL: ptr("http://h/c1")},
		{URL: "http://h/c1", Status: ptr(302), NextURL: ptr("http://h/c2")},
		{URL: "http://h/c2", Status: ptr(400)},
		{URL: "http://h/unwatched", Status: ptr(500)},
	} {
		w.note(r)
	}
	w.noteDisallowed("http://h/no")
	w.noteDisallowed("http://h/unwatched-too")
	v := view{cfg: Config{MaxRedirect: 2}, roots: roots, watch: w}
	want := []string{
		"http://h/err: connection refused",
		"http://h/404: status 404",
		"http://h/no: disallowed by robots.txt",
		"http://h/half: status 200: parsing links: x",
		"http://h/chain: status 400",
	}
	if got := v.failedRoots(); !slices.Equal(got, want) {
		t.Errorf("failed roots %q, want %q", got, want)
	}
	if w.isDisallowed("http://h/unwatched-too") || len(w.byURL()) != 8 {
		t.Errorf("watched %d records, unwatched disallowed noted: %v", len(w.byURL()), w.isDisallowed("http://h/unwatched-too"))
	}
}
