package workload

import (
	"errors"
	"sync"
	"testing"
	"time"
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
		{Kind: Fetch, URL: "http://x/"},                                   // neither counted nor timed
		{Kind: Fetch, URL: "http://x/", N: 1, Duration: time.Second},      // both
		{Kind: Fetch, URL: "http://x/", N: 1, C: -1},                      // negative
		{Kind: Fetch, URL: "http://x/", N: 10, Rate: 100, C: 4},           // paced without a window
		{Kind: Fetch, URL: "http://x/", Duration: time.Second, Rate: 100}, // paced without connections
		{Kind: Crawl, URL: "http://x/"},
	}
	for _, j := range bad {
		if j.Check() == nil {
			t.Errorf("%+v: Check() accepted it", j)
		}
	}
	good := []Job{
		{Kind: Fetch, URL: "http://x/", N: 1},
		{Kind: Fetch, URL: "http://x/", Duration: time.Second, C: 4},
		{Kind: Fetch, URL: "http://x/", Duration: time.Second, C: 4, Rate: 100},
		{Kind: Crawl, URL: "http://x/", C: 4},
	}
	for _, j := range good {
		if err := j.Check(); err != nil {
			t.Errorf("%+v: %v", j, err)
		}
	}
}

func TestCountKeepsTheFirstFailure(t *testing.T) {
	m := NewMeter(Job{Kind: Fetch, N: 3})
	m.Count(200, nil)
	m.Count(503, nil)
	m.Count(0, errors.New("connection refused"))
	if ok, failed := m.Counts(); ok != 1 || failed != 2 || m.FirstError() != "status 503" {
		t.Fatalf("%d ok, %d failed, first %q", ok, failed, m.FirstError())
	}
}

// A counted job lets exactly N requests start, however many goroutines ask.
func TestNextGrantsExactlyN(t *testing.T) {
	m := NewMeter(Job{Kind: Fetch, N: 100})
	var mu sync.Mutex
	granted := 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m.Next() {
				mu.Lock()
				granted++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if granted != 100 {
		t.Fatalf("%d granted", granted)
	}
}

// A timed job stops granting at its end; a crawl never refuses.
func TestNextEndsATimedJob(t *testing.T) {
	m := NewMeter(Job{Kind: Fetch, Duration: time.Nanosecond})
	m.start = m.start.Add(-time.Second) // as if the job began a second ago
	if m.Next() {
		t.Error("a request may start after the end")
	}
	if !NewMeter(Job{Kind: Crawl, C: 1}).Next() {
		t.Error("a crawl was refused")
	}
}

// 1000 requests a second for 10 ms: ten arrivals, 1 ms apart, every one
// sent however late the dispatcher wakes; latency is only kept for those
// due after the warm-up, and measured from when they were due.
func TestPacerSendsEveryArrivalWhenDue(t *testing.T) {
	m := NewMeter(Job{Kind: Fetch, Rate: 1000, Warmup: 4 * time.Millisecond, Duration: 6 * time.Millisecond, C: 1})
	p := m.Pacer()
	if p.Arrivals() != 10 {
		t.Fatalf("%d arrivals", p.Arrivals())
	}
	var sent []time.Duration
	send := func(at time.Duration) { sent = append(sent, at) }
	next, done := p.Due(2500*time.Microsecond, send)
	if len(sent) != 3 || next != 3*time.Millisecond || done {
		t.Fatalf("by 2.5 ms: sent %v, next %v, done %v", sent, next, done)
	}
	_, done = p.Due(time.Hour, send) // a dispatcher that slept through the rest
	if len(sent) != 10 || !done || sent[9] != 9*time.Millisecond {
		t.Fatalf("sent %v, done %v", sent, done)
	}
	for _, at := range sent {
		m.CountAt(at, 200, nil)
	}
	if got := m.Latency.Count(); got != 6 {
		t.Errorf("%d latencies kept, want the 6 due in the window", got)
	}
	if ok, _ := m.Counts(); ok != 10 {
		t.Errorf("%d ok", ok)
	}
}

func TestLateKeepsTheWorst(t *testing.T) {
	m := NewMeter(Job{Kind: Crawl, C: 1})
	for _, d := range []time.Duration{3, 9, 4} {
		m.Late(d)
	}
	if m.Stall() != 9 {
		t.Fatalf("stall %v", m.Stall())
	}
}

// A paced job expires a grace period after its end, and a request given
// up then is a failure whose wait still counts as its latency; other jobs
// never expire.
func TestAPacedJobExpiresAfterItsGrace(t *testing.T) {
	m := NewMeter(Job{Kind: Fetch, Rate: 10, Duration: time.Millisecond, Grace: 5 * time.Millisecond, C: 1})
	defer m.Close()
	<-m.Expiry()
	if !m.Expired() || m.Context().Err() == nil {
		t.Fatal("the expiry channel closed but the meter does not say so")
	}
	m.GiveUp(0)
	if _, failed := m.Counts(); failed != 1 || m.FirstError() != ErrGaveUp.Error() || m.Latency.Count() != 1 {
		t.Errorf("%d failed (%q), %d latencies", failed, m.FirstError(), m.Latency.Count())
	}
	closed := NewMeter(Job{Kind: Fetch, Duration: time.Millisecond})
	if closed.Expiry() != nil || closed.Expired() {
		t.Error("a closed-loop job expires")
	}
}
