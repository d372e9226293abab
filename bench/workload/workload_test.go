package workload

import (
	"errors"
	"testing"
)

func TestLimitIsCOrEveryRequest(t *testing.T) {
	cases := []struct {
		job  Job
		want int
	}{
		{Job{N: 60, C: 5}, 5},
		{Job{N: 60}, 60},     // unbounded: all at once
		{Job{N: 0, C: 0}, 1}, // a crawl has no N; never a limit of 0
	}
	for _, c := range cases {
		if got := c.job.Limit(); got != c.want {
			t.Errorf("%+v: Limit() = %d, want %d", c.job, got, c.want)
		}
	}
}

func TestCheckRejectsJobsNoVariantCanRun(t *testing.T) {
	bad := []Job{
		{Kind: "walk", URL: "http://x/"},
		{Kind: Fetch, N: 1},
		{Kind: Fetch, URL: "http://x/"},
		{Kind: Fetch, URL: "http://x/", N: 1, C: -1},
		{Kind: Crawl, URL: "http://x/"},
	}
	for _, j := range bad {
		if j.Check() == nil {
			t.Errorf("%+v: Check() accepted it", j)
		}
	}
	good := []Job{{Kind: Fetch, URL: "http://x/", N: 1}, {Kind: Crawl, URL: "http://x/", C: 4}}
	for _, j := range good {
		if err := j.Check(); err != nil {
			t.Errorf("%+v: %v", j, err)
		}
	}
}

func TestCountKeepsTheFirstFailure(t *testing.T) {
	var tl Tally
	tl.Count(200, nil)
	tl.Count(503, nil)
	tl.Count(0, errors.New("connection refused"))
	if tl.OK != 1 || tl.Failed != 2 || tl.FirstError != "status 503" {
		t.Fatalf("got %+v", tl)
	}
}
