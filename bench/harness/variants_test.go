package harness

import (
	"fmt"
	"slices"
	"testing"

	"loopkit/bench/site"
	"loopkit/bench/workload"
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

// A tiny S1 (6 × 20 ms) against a site in this process: every variant
// makes the six requests, and the server never sees more than C at once,
// nor fewer (the requests are slow enough to overlap).
func TestEveryVariantKeepsExactlyCInFlight(t *testing.T) {
	s := inProcessSite(t, 10)
	for _, c := range []int{2, 0} {
		for _, v := range Variants {
			t.Run(fmt.Sprintf("%s/C=%d", v.Name, c), func(t *testing.T) {
				s.Reset()
				job := workload.Job{Kind: workload.Fetch, URL: s.URL() + "delay?ms=20", N: 6, C: c}
				tally, err := v.Run(job)
				if err != nil {
					t.Fatal(err)
				}
				if tally.OK != 6 || tally.Failed != 0 {
					t.Fatalf("%d ok, %d failed (%s)", tally.OK, tally.Failed, tally.FirstError)
				}
				st := s.Stats()
				if want := int64(job.Limit()); st.PeakInFlight != want || st.Requests != 6 {
					t.Errorf("server saw %d requests, at most %d at once; want 6, %d", st.Requests, st.PeakInFlight, want)
				}
			})
		}
	}
}

// Every variant crawls by the same rules, so all fetch the same URLs:
// those of the site's own link graph.
func TestEveryVariantCrawlsTheSameURLs(t *testing.T) {
	s := inProcessSite(t, 200)
	want := s.Expected(false)
	for _, v := range Variants {
		t.Run(v.Name, func(t *testing.T) {
			tally, err := v.Run(workload.Job{Kind: workload.Crawl, URL: s.URL(), C: 4})
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Clone(tally.URLs)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("fetched %d URLs, the graph has %d; missing %v; extra %v",
					len(got), len(want), difference(want, got), difference(got, want))
			}
			if tally.Failed != 0 || tally.OK != len(want) {
				t.Errorf("%d ok, %d failed (%s)", tally.OK, tally.Failed, tally.FirstError)
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
