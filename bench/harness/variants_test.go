package harness

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"loopkit/bench/workload"
	"loopkit/site"
)

func inProcessSite(t *testing.T, pages int) *site.Site {
	t.Helper()
	s, err := site.Start(site.Config{Pages: pages}, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// runnable are the variants this OS runs.
func runnable() []Variant {
	var out []Variant
	for _, v := range Variants {
		if v.Name != floorEpoll || runtime.GOOS == "linux" {
			out = append(out, v)
		}
	}
	return out
}

// A tiny S1 (6 × 20 ms) against a site in this process: every variant
// makes the six requests, and the server never sees more than C at once,
// nor fewer (the requests are slow enough to overlap).
func TestEveryVariantKeepsExactlyCInFlight(t *testing.T) {
	s := inProcessSite(t, 10)
	for _, c := range []int{2, 0} {
		for _, v := range runnable() {
			t.Run(fmt.Sprintf("%s/C=%d", v.Name, c), func(t *testing.T) {
				s.Reset()
				job := workload.Job{Kind: workload.Fetch, URL: s.URL() + "delay?ms=20", N: 6, C: c}
				m := workload.NewMeter(job)
				if err := v.Run(job, m); err != nil {
					t.Fatal(err)
				}
				if ok, failed := m.Counts(); ok != 6 || failed != 0 {
					t.Fatalf("%d ok, %d failed (%s)", ok, failed, m.FirstError())
				}
				st := s.Stats()
				if want := int64(job.Limit()); st.PeakInFlight != want || st.Requests != 6 {
					t.Errorf("server saw %d requests, at most %d at once; want 6, %d", st.Requests, st.PeakInFlight, want)
				}
			})
		}
	}
}

// A timed job keeps going until its end and stops there: every request
// the server saw was answered and counted, none failed, and no more than
// C were in flight.
func TestEveryVariantRunsATimedJob(t *testing.T) {
	s := inProcessSite(t, 10)
	for _, v := range runnable() {
		t.Run(v.Name, func(t *testing.T) {
			s.Reset()
			job := workload.Job{Kind: workload.Fetch, URL: s.URL() + "delay?ms=0", Duration: 30 * time.Millisecond, C: 3}
			m := workload.NewMeter(job)
			if err := v.Run(job, m); err != nil {
				t.Fatal(err)
			}
			ok, failed := m.Counts()
			st := s.Stats()
			if ok == 0 || failed != 0 || st.Requests != ok || st.PeakInFlight > 3 {
				t.Fatalf("%d ok, %d failed (%s); the server saw %d, at most %d at once",
					ok, failed, m.FirstError(), st.Requests, st.PeakInFlight)
			}
		})
	}
}

// An open-loop job sends every arrival exactly once, late or not, and
// keeps a latency for each one due inside the window.
func TestEveryVariantSendsEveryArrivalOfAnOpenLoopJob(t *testing.T) {
	s := inProcessSite(t, 10)
	for _, v := range runnable() {
		if v.Only == "S2" {
			continue // several loops run closed-loop jobs alone (S2)
		}
		t.Run(v.Name, func(t *testing.T) {
			s.Reset()
			job := workload.Job{Kind: workload.Fetch, URL: s.URL() + "delay?ms=1", Rate: 400,
				Warmup: 25 * time.Millisecond, Duration: 50 * time.Millisecond, C: 2}
			m := workload.NewMeter(job)
			if err := v.Run(job, m); err != nil {
				t.Fatal(err)
			}
			ok, failed := m.Counts()
			if ok != 30 || failed != 0 || s.Stats().Requests != 30 {
				t.Fatalf("%d ok, %d failed (%s), the server saw %d; want the 30 arrivals of 75 ms at 400/s",
					ok, failed, m.FirstError(), s.Stats().Requests)
			}
			if n := m.Latency.Count(); n != 20 {
				t.Errorf("%d latencies, want the 20 due in the window", n)
			}
			if st := s.Stats(); st.Conns > 2 {
				t.Errorf("%d connections opened, want at most 2", st.Conns)
			}
		})
	}
}

// Every variant crawls with the same code, so all fetch the same URLs:
// those of the site's own link graph. The floors do not crawl, and say so.
func TestEveryVariantCrawlsTheSameURLs(t *testing.T) {
	s := inProcessSite(t, 200)
	want := s.Expected(false)
	for _, v := range runnable() {
		t.Run(v.Name, func(t *testing.T) {
			job := workload.Job{Kind: workload.Crawl, URL: s.URL(), C: 4, Probe: true}
			m := workload.NewMeter(job)
			err := v.Run(job, m)
			if !v.Crawls {
				if err == nil {
					t.Fatal("a floor crawled")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Clone(m.URLs())
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("fetched %d URLs, the graph has %d; missing %v; extra %v",
					len(got), len(want), difference(want, got), difference(got, want))
			}
			if ok, failed := m.Counts(); failed != 0 || ok != int64(len(want)) {
				t.Errorf("%d ok, %d failed (%s)", ok, failed, m.FirstError())
			}
		})
	}
}

func TestLookupNamesTheKnownVariants(t *testing.T) {
	if _, err := Lookup("reactor-callbacks"); err != nil {
		t.Fatal(err)
	}
	if _, err := Lookup("threads"); err == nil {
		t.Fatal("an unknown variant was found")
	}
}

// A client that falls hopelessly behind an open-loop job gives up what it
// has not sent by the end of the grace period: every arrival is still
// accounted for, answered or given up, and the run ends. Here the site
// holds every request 120 ms on one connection, so that of 20 arrivals in
// 50 ms none but the first can even be sent before the grace is over.
func TestEveryVariantGivesUpWhatItCannotSendInTime(t *testing.T) {
	s := inProcessSite(t, 10)
	for _, v := range runnable() {
		if v.Only == "S2" {
			continue // several loops run closed-loop jobs alone (S2)
		}
		t.Run(v.Name, func(t *testing.T) {
			job := workload.Job{Kind: workload.Fetch, URL: s.URL() + "delay?ms=120", Rate: 400,
				Duration: 50 * time.Millisecond, Grace: 20 * time.Millisecond, C: 1}
			m := workload.NewMeter(job)
			defer m.Close()
			if err := v.Run(job, m); err != nil {
				t.Fatal(err)
			}
			ok, failed := m.Counts()
			if ok+failed != 20 || failed == 0 || m.Latency.Count() != 20 {
				t.Fatalf("%d ok, %d given up, %d latencies; want 20 arrivals, some given up", ok, failed, m.Latency.Count())
			}
		})
	}
}

// Real-size pages (site PageBytes) go to the parse workers of the
// parse-off variant, and it crawls the same URLs as the loop parsing them
// itself, counting every body byte.
func TestParseOffCrawlsRealSizePagesLikeTheLoop(t *testing.T) {
	s, err := site.Start(site.Config{Pages: 80, PageBytes: 32 << 10}, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	want := s.Expected(false)
	var bytes []int64
	for _, name := range []string{loopVariant, parseOffVariant} {
		v, _ := Lookup(name)
		job := workload.Job{Kind: workload.Crawl, URL: s.URL(), C: 4}
		m := workload.NewMeter(job)
		if err := v.Run(job, m); err != nil {
			t.Fatal(err)
		}
		got := slices.Sorted(slices.Values(m.URLs()))
		if !slices.Equal(got, want) {
			t.Fatalf("%s fetched %d URLs, the graph has %d", name, len(got), len(want))
		}
		bytes = append(bytes, m.BodyBytes())
	}
	if bytes[0] != bytes[1] || bytes[0] < 40*32<<10 {
		t.Fatalf("body bytes %v: want equal, and at least forty 32 KiB pages' worth", bytes)
	}
}
