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
	"strconv"
	"strings"
	"testing"
	"time"

	"loopkit/internal/wirelog"
)

// traceEvent is one event of a trace-event file, as a viewer reads it:
// its times are float64s.
type traceEvent struct {
	Ph   string         `json:"ph"`
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Pid  *int           `json:"pid"`
	Tid  int            `json:"tid"`
	TS   *float64       `json:"ts"`
	Dur  *float64       `json:"dur"`
	Args map[string]any `json:"args"`
}

// readTrace parses a trace-event file the way a viewer must be able to:
// one JSON object with a traceEvents array, every event with a kind, a
// name, a process and a time, in whole microseconds. It fails the test
// otherwise.
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
	for i, e := range file.TraceEvents {
		if e.Ph == "" || e.Name == "" || e.Pid == nil || e.TS == nil || *e.TS < 0 || *e.TS != math.Trunc(*e.TS) {
			t.Fatalf("event %d lacks a kind, a name, a pid or a time ≥ 0 in whole microseconds: %+v", i, e)
		}
		if e.Ph == "X" && (e.Dur == nil || *e.Dur < 0 || *e.Dur != math.Trunc(*e.Dur)) {
			t.Fatalf("slice %d has no duration in whole microseconds: %+v", i, e)
		}
		if e.Ph == "b" || e.Ph == "e" || e.Ph == "B" || e.Ph == "E" {
			t.Fatalf("event %d is a %q: every slice is a complete one (X) on a thread, which every viewer draws", i, e.Ph)
		}
	}
	return file.TraceEvents
}

type threadKey struct{ pid, tid int }

// threads groups the slices by thread, in the file's order.
func threads(events []traceEvent) map[threadKey][]traceEvent {
	out := map[threadKey][]traceEvent{}
	for _, e := range events {
		if e.Ph == "X" {
			out[threadKey{*e.Pid, e.Tid}] = append(out[threadKey{*e.Pid, e.Tid}], e)
		}
	}
	return out
}

// checkNesting reads the slices as a viewer does, in float64 arithmetic,
// and checks that they nest. speedscope, for one, takes each thread's
// slices, moves them so that the first starts at 0 (ts minus the
// thread's least ts), ends each at ts + dur, and replays the begins and
// the ends in time order: an end at the same time as a begin goes first;
// an end that is not the innermost slice's is ignored, and leaves that
// slice open — the staircase of turns that never end. So: on each
// thread, two slices are either disjoint (one ends where or before the
// other starts) or one lies inside the other; and the replay closes every
// slice it opens, innermost first.
func checkNesting(t *testing.T, events []traceEvent) {
	t.Helper()
	for th, xs := range threads(events) {
		least := math.Inf(1)
		for _, x := range xs {
			least = math.Min(least, *x.TS)
		}
		type slice struct {
			name       string
			start, end float64
		}
		var ss []slice
		for _, x := range xs {
			start := *x.TS - least
			ss = append(ss, slice{x.Name, start, start + *x.Dur})
		}
		// Laminar: sorted by start, longest first, each slice fits in the
		// innermost one still open at its start.
		sorted := slices.Clone(ss)
		slices.SortStableFunc(sorted, func(a, b slice) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end)) })
		var open []slice
		for _, s := range sorted {
			for len(open) > 0 && open[len(open)-1].end <= s.start {
				open = open[:len(open)-1]
			}
			if len(open) > 0 && s.end > open[len(open)-1].end {
				p := open[len(open)-1]
				t.Fatalf("pid %d tid %d: %q [%v, %v] overlaps %q [%v, %v] without nesting in it",
					th.pid, th.tid, s.name, s.start, s.end, p.name, p.start, p.end)
			}
			open = append(open, s)
		}
		replay(t, th, xs, least)
	}
}

// replay is speedscope's import of a thread's slices (its Trace Event
// importer, as its npm build 1.25 has it), in float64: each slice becomes
// a begin at ts and an end at ts + dur, both moved by the thread's least
// ts; begins and ends are each sorted by time (slices that start
// together, the longer first); then, in time order, at equal times an end
// before a begin unless both are the same slice's. An end looks for the
// innermost slice's end among those at its time; the end of any other
// slice is ignored, and the slice stays open: the test fails there.
func replay(t *testing.T, th threadKey, xs []traceEvent, least float64) {
	t.Helper()
	type ev struct {
		key, name string
		at        float64
	}
	key := func(x traceEvent) string {
		args, _ := json.Marshal(x.Args)
		return x.Name + " " + string(args)
	}
	sorted := slices.Clone(xs)
	slices.SortStableFunc(sorted, func(a, b traceEvent) int { return cmp.Or(cmp.Compare(*a.TS, *b.TS), cmp.Compare(*b.Dur, *a.Dur)) })
	var begins, ends []ev
	for _, x := range sorted {
		begins = append(begins, ev{key(x), x.Name, *x.TS - least})
		ends = append(ends, ev{key(x), x.Name, *x.TS - least + *x.Dur})
	}
	byTime := func(a, b ev) int { return cmp.Compare(a.at, b.at) }
	slices.SortStableFunc(begins, byTime)
	slices.SortStableFunc(ends, byTime)
	var stack []ev
	for len(begins) > 0 || len(ends) > 0 {
		begin := len(ends) == 0 || len(begins) > 0 && (begins[0].at < ends[0].at || begins[0].at == ends[0].at && begins[0].key == ends[0].key)
		if begin {
			stack, begins = append(stack, begins[0]), begins[1:]
			continue
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			for i := 1; i < len(ends) && ends[i].at == ends[0].at; i++ {
				if ends[i].key == top.key {
					ends[0], ends[i] = ends[i], ends[0]
					break
				}
			}
		}
		end := ends[0]
		ends = ends[1:]
		if len(stack) == 0 || stack[len(stack)-1].name != end.name {
			t.Fatalf("pid %d tid %d: %q ends at %v while %v is innermost: speedscope ignores the end and leaves the slice open",
				th.pid, th.tid, end.name, end.at, stack)
		}
		stack = stack[:len(stack)-1]
	}
}

// checkOneClock checks that the loops and the connections are on one
// clock: a request ends in a callback of its loop (the one that read
// the last of its reply), so its end is inside one of that loop's turns.
func checkOneClock(t *testing.T, events []traceEvent) {
	t.Helper()
	turns := map[int][][2]float64{}
	for _, e := range events {
		if e.Ph == "X" && e.Name == "turn" {
			turns[*e.Pid] = append(turns[*e.Pid], [2]float64{*e.TS, *e.TS + *e.Dur})
		}
	}
	for _, e := range events {
		if e.Ph != "X" || e.Cat != "request" {
			continue
		}
		end := *e.TS + *e.Dur
		if !slices.ContainsFunc(turns[*e.Pid], func(turn [2]float64) bool { return turn[0] <= end && end <= turn[1] }) {
			t.Fatalf("%s on pid %d tid %d ends at %v µs, in no turn of its loop: the clocks disagree", e.Name, *e.Pid, e.Tid, end)
		}
	}
}

// bigLeaf is a page big enough to be parsed off the loop.
func bigLeaf(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprintf(w, "<html><body><p>%s</p></body></html>", strings.Repeat("words ", 2000))
}

// --trace_events writes a file a trace viewer opens, at --loops 1 and 2:
// valid trace-event JSON, in whole microseconds, whose slices nest as a
// viewer reads them (float64); a thread per loop, with its turns, its
// waits and its callbacks by name; a request slice for each request the
// server saw, on a thread per connection the server accepted, each with
// its phases; each host's requests in flight, as a thread and as a
// counter; a slice per page on the parse workers' threads.
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
			conns, counters := map[[2]int]bool{}, map[string]float64{}
			depth := map[[2]int]int{} // a host thread's deepest "k in flight"
			for _, e := range events {
				switch {
				case e.Ph == "M" && e.Name == "thread_name":
					names[[2]int{*e.Pid, e.Tid}] = e.Args["name"].(string)
				case (e.Ph == "X" || e.Ph == "i") && e.Name == "turn":
					turns[*e.Pid]++
				case (e.Ph == "X" || e.Ph == "i") && e.Cat == "loop" && e.Name == "wait":
					waits++
				case (e.Ph == "X" || e.Ph == "i") && e.Cat == "callback":
					calls++
				case e.Ph == "X" && e.Cat == "request":
					requests++
					conns[[2]int{*e.Pid, e.Tid}] = true
				case e.Ph == "X" && e.Cat == "net":
					phases[e.Name]++
				case e.Ph == "X" && e.Cat == "host":
					k, _ := strconv.Atoi(strings.TrimSuffix(e.Name, " in flight"))
					depth[[2]int{*e.Pid, e.Tid}] = max(depth[[2]int{*e.Pid, e.Tid}], k)
				case e.Ph == "X" && e.Name == "parse":
					parses++
				case e.Ph == "C":
					counters[e.Name] = max(counters[e.Name], e.Args["requests"].(float64))
				}
			}
			for i := range loops {
				if !strings.HasPrefix(names[[2]int{i + 1, 1}], fmt.Sprintf("loop %d", i)) || turns[i+1] == 0 {
					t.Errorf("loop %d: thread %q with %d turns, want a named thread with its turns", i, names[[2]int{i + 1, 1}], turns[i+1])
				}
			}
			if waits == 0 || calls == 0 {
				t.Errorf("%d waits and %d callbacks: a crawl has both", waits, calls)
			}
			if arrived := len(srv.Arrivals("a", "b")); requests != arrived {
				t.Errorf("%d request slices for %d requests the servers saw", requests, arrived)
			}
			if accepted := srv.Conns("a") + srv.Conns("b"); len(conns) != accepted {
				t.Errorf("%d connection threads for %d connections the servers accepted", len(conns), accepted)
			}
			for c := range conns {
				if !strings.HasPrefix(names[c], "conn ") {
					t.Errorf("a connection's thread is named %q, want \"conn N\"", names[c])
				}
			}
			// Every request had an answer, so a wait for it; every
			// connection was dialled for a request, so has its connect.
			if phases["wait"] != requests || phases["connect"] != len(conns) {
				t.Errorf("%d wait phases for %d requests, %d connect phases for %d connections", phases["wait"], requests, phases["connect"], len(conns))
			}
			if parses != 12 || names[[2]int{loops + 1, 1}] != "worker 0" {
				t.Errorf("%d parse slices (want the 12 big pages), worker thread %q", parses, names[[2]int{loops + 1, 1}])
			}
			// Each host: a thread whose slices stack as deep as its
			// counter climbs, from 1 to at most --per_host.
			for _, base := range []string{a, b} {
				host := strings.TrimPrefix(base, "http://")
				peak := counters["in flight: "+host]
				var thread [2]int
				for th, name := range names {
					if name == "host "+host {
						thread = th
					}
				}
				if peak < 1 || peak > 8 || thread == [2]int{} || float64(depth[thread]) != peak {
					t.Errorf("%s: at most %v requests in flight in the counter, %d deep on the thread %v; want the same, 1 to --per_host 8", base, peak, depth[thread], thread)
				}
			}
			allTurns := 0
			for _, n := range turns {
				allTurns += n
			}
			if !strings.Contains(stderr.String(), fmt.Sprintf("%d turns and %d callbacks on %s, %d requests on %d connections", allTurns, calls, plural(loops, "loop"), requests, len(conns))) {
				t.Errorf("stderr does not say what the file holds:\n%s", stderr.String())
			}
		})
	}
}
