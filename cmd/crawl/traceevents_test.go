package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/internal/wirelog"
)

// traceEvent is one event of a trace-event file, as a viewer reads it.
type traceEvent struct {
	Ph   string         `json:"ph"`
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Pid  *int           `json:"pid"`
	Tid  int            `json:"tid"`
	TS   *float64       `json:"ts"`
	Dur  *float64       `json:"dur"`
	ID   string         `json:"id"`
	Args map[string]any `json:"args"`
	at   int            // its place in the file: equal times keep file order
}

func (e traceEvent) ns() int64 { return int64(math.Round(*e.TS * 1000)) }

// readTrace parses a trace-event file the way a viewer must be able to:
// one JSON object with a traceEvents array, every event with a kind, a
// name, a process and a time. It fails the test otherwise.
func readTrace(t *testing.T, path string) []traceEvent {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if len(file.TraceEvents) == 0 {
		t.Fatal("no traceEvents")
	}
	for i := range file.TraceEvents {
		e := &file.TraceEvents[i]
		e.at = i
		if e.Ph == "" || e.Name == "" || e.Pid == nil || e.TS == nil || *e.TS < 0 {
			t.Fatalf("event %d lacks a kind, a name, a pid or a time ≥ 0: %+v", i, *e)
		}
		if e.Ph == "X" && (e.Dur == nil || *e.Dur < 0) {
			t.Fatalf("slice %d has no duration: %+v", i, *e)
		}
		if (e.Ph == "b" || e.Ph == "e") && e.ID == "" {
			t.Fatalf("async event %d has no id: %+v", i, *e)
		}
	}
	return file.TraceEvents
}

// checkNesting checks what a viewer needs to draw the slices: on each
// thread, slices ("X") nest or follow one another, never overlap; on each
// async track (process, category, id), every end closes the slice of the
// same name begun last, once sorted by time (equal times in file order).
func checkNesting(t *testing.T, events []traceEvent) {
	t.Helper()
	type thread struct{ pid, tid int }
	slicesOf := map[thread][]traceEvent{}
	type track struct {
		pid     int
		cat, id string
	}
	asyncOf := map[track][]traceEvent{}
	for _, e := range events {
		switch e.Ph {
		case "X":
			slicesOf[thread{*e.Pid, e.Tid}] = append(slicesOf[thread{*e.Pid, e.Tid}], e)
		case "b", "e":
			asyncOf[track{*e.Pid, e.Cat, e.ID}] = append(asyncOf[track{*e.Pid, e.Cat, e.ID}], e)
		}
	}
	for th, xs := range slicesOf {
		end := func(e traceEvent) int64 { return e.ns() + int64(math.Round(*e.Dur*1000)) }
		slices.SortStableFunc(xs, func(a, b traceEvent) int { return cmp.Or(cmp.Compare(a.ns(), b.ns()), cmp.Compare(end(b), end(a))) })
		var open []traceEvent
		for _, x := range xs {
			for len(open) > 0 && end(open[len(open)-1]) <= x.ns() {
				open = open[:len(open)-1]
			}
			if len(open) > 0 && end(x) > end(open[len(open)-1]) {
				t.Fatalf("pid %d tid %d: %q [%d, %d] ns overlaps %q [%d, %d] ns without nesting in it",
					th.pid, th.tid, x.Name, x.ns(), end(x), open[len(open)-1].Name, open[len(open)-1].ns(), end(open[len(open)-1]))
			}
			open = append(open, x)
		}
	}
	for tr, es := range asyncOf {
		slices.SortStableFunc(es, func(a, b traceEvent) int { return cmp.Or(cmp.Compare(a.ns(), b.ns()), cmp.Compare(a.at, b.at)) })
		var open []string
		for _, e := range es {
			if e.Ph == "b" {
				open = append(open, e.Name)
				continue
			}
			if len(open) == 0 || open[len(open)-1] != e.Name {
				t.Fatalf("track %v: %q ends, but the slice open is %v", tr, e.Name, open)
			}
			open = open[:len(open)-1]
		}
		if len(open) > 0 {
			t.Fatalf("track %v: %v never end", tr, open)
		}
	}
}

// checkOneClock checks that the loops and the connections are on one
// clock: a request ends in a callback of its loop (the one that read
// the last of its reply), so its end is inside one of that loop's turns.
func checkOneClock(t *testing.T, events []traceEvent) {
	t.Helper()
	turns := map[int][][2]int64{}
	for _, e := range events {
		if e.Ph == "X" && e.Name == "turn" {
			turns[*e.Pid] = append(turns[*e.Pid], [2]int64{e.ns(), e.ns() + int64(math.Round(*e.Dur*1000))})
		}
	}
	open := map[string]bool{} // request slices open, by track
	for _, e := range events {
		if e.Ph == "b" && e.Args["url"] != nil {
			open[e.ID+" "+e.Name] = true
			continue
		}
		if e.Ph != "e" || !open[e.ID+" "+e.Name] {
			continue
		}
		delete(open, e.ID+" "+e.Name)
		if !slices.ContainsFunc(turns[*e.Pid], func(turn [2]int64) bool { return turn[0] <= e.ns() && e.ns() <= turn[1] }) {
			t.Fatalf("%s on %s ends at %d ns, in no turn of its loop (pid %d): the clocks disagree", e.Name, e.ID, e.ns(), *e.Pid)
		}
	}
}

// bigLeaf is a page big enough to be parsed off the loop.
func bigLeaf(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprintf(w, "<html><body><p>%s</p></body></html>", strings.Repeat("words ", 2000))
}

// --trace_events writes a file a trace viewer opens, at --loops 1 and 2:
// valid trace-event JSON whose slices nest; a track per loop, with its
// turns, its waits and its callbacks by name; a request slice for each
// request the server saw, on a track per connection the server
// accepted, each with its phases; each host's requests in flight; a
// slice per page on the parse workers' threads.
func TestTraceEventsOpenInAViewer(t *testing.T) {
	defer time.AfterFunc(time.Minute, func() { panic("hung: a crawl of two small hosts did not end in a minute") }).Stop()
	for _, loops := range []int{1, 2} {
		t.Run(fmt.Sprintf("loops=%d", loops), func(t *testing.T) {
			srv := wirelog.New(t)
			a, b := srv.Host("a", wirelog.Fan(6, bigLeaf)), srv.Host("b", wirelog.Fan(6, bigLeaf))
			path := filepath.Join(t.TempDir(), "trace.json")
			var stdout, stderr bytes.Buffer
			args := []string{"--trace_events", path, "--loops", fmt.Sprint(loops), "--parse_workers", "2", a, b}
			if code := run(args, &stdout, &stderr, nil); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			events := readTrace(t, path)
			checkNesting(t, events)
			checkOneClock(t, events)

			names := map[[2]int]string{} // pid, tid → thread name
			turns, waits, calls := map[int]int{}, 0, 0
			requests, parses, phases := 0, 0, map[string]int{}
			conns, counters := map[string]bool{}, map[string]float64{}
			for _, e := range events {
				switch {
				case e.Ph == "M" && e.Name == "thread_name":
					names[[2]int{*e.Pid, e.Tid}] = e.Args["name"].(string)
				case e.Ph == "X" && e.Name == "turn":
					turns[*e.Pid]++
				case e.Ph == "X" && e.Name == "wait":
					waits++
				case e.Ph == "X" && e.Cat == "callback":
					calls++
				case e.Ph == "b" && e.Args["url"] != nil:
					requests++
					conns[fmt.Sprint(*e.Pid, e.ID)] = true
				case e.Ph == "b" && e.Cat == "net":
					phases[e.Name]++
				case e.Ph == "X" && e.Name == "parse":
					parses++
				case e.Ph == "C":
					counters[e.Name] = max(counters[e.Name], e.Args["requests"].(float64))
				}
			}
			for i := range loops {
				if !strings.HasPrefix(names[[2]int{i + 1, 1}], fmt.Sprintf("loop %d", i)) || turns[i+1] == 0 {
					t.Errorf("loop %d: thread %q with %d turns, want a named track with its turns", i, names[[2]int{i + 1, 1}], turns[i+1])
				}
			}
			if waits == 0 || calls == 0 {
				t.Errorf("%d waits and %d callbacks: a crawl has both", waits, calls)
			}
			if arrived := len(srv.Arrivals("a", "b")); requests != arrived {
				t.Errorf("%d request slices for %d requests the servers saw", requests, arrived)
			}
			if accepted := srv.Conns("a") + srv.Conns("b"); len(conns) != accepted {
				t.Errorf("%d connection tracks for %d connections the servers accepted", len(conns), accepted)
			}
			// Every request had an answer, so a wait for it; every
			// connection was dialled for a request, so has its connect.
			if phases["wait"] != requests || phases["connect"] != len(conns) {
				t.Errorf("%d wait phases for %d requests, %d connect phases for %d connections", phases["wait"], requests, phases["connect"], len(conns))
			}
			if parses != 12 || names[[2]int{loops + 1, 1}] != "worker 0" {
				t.Errorf("%d parse slices (want the 12 big pages), worker thread %q", parses, names[[2]int{loops + 1, 1}])
			}
			for _, base := range []string{a, b} {
				peak := counters["in flight: "+strings.TrimPrefix(base, "http://")]
				if peak < 1 || peak > 8 {
					t.Errorf("%s: at most %v requests in flight in the trace, want 1 to --per_host 8", base, peak)
				}
			}
			if !strings.Contains(stderr.String(), fmt.Sprintf("on %s, %d requests on %d connections", plural(loops, "loop"), requests, len(conns))) {
				t.Errorf("stderr does not say what the file holds:\n%s", stderr.String())
			}
		})
	}
}
