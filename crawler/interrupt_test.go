package crawler_test

import (
	"net/http"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/internal/wirelog"
	"loopkit/loop"
	"loopkit/task"
)

// A second Interrupt cancels what is in flight at once, whatever the
// grace period: with an hour's grace and a page that never answers, the
// crawl ends, the server sees the request's connection closed, and the
// cancelled page counts to do with the pages never sent. Seen failing
// with the second Interrupt doing nothing (the guard fired: the crawl
// waited for the grace), and with Todo leaving out what was cancelled.
func TestASecondInterruptCancelsWhatIsInFlightAtOnce(t *testing.T) {
	srv := wirelog.New(t)
	arrived, gone := make(chan struct{}, 1), make(chan struct{})
	root := srv.Host("h", wirelog.Fan(5, func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		<-r.Context().Done() // never answers; the client closing the connection ends it
		close(gone)
	}))
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	// PerHost 1: one page is on the wire, and the other four wait behind it.
	c, err := crawler.New(l, crawler.Config{Roots: []string{root}, NoRobots: true, PerHost: 1, Grace: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		<-arrived
		l.CallSoonThreadsafe(func() { c.Interrupt(); c.Interrupt() })
	}()
	guard := l.CallLater(30*time.Second, func() { t.Error("the crawl did not end: the second interrupt waited for the grace period"); l.Stop() })
	task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) })
	guard.Cancel()
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the page's request end")
	}
	s := c.Stats()
	if s.Cancelled != 1 || c.Todo() != 5 || len(c.Records()) != 1 {
		t.Fatalf("cancelled %d, todo %d, recorded %d; want the page in flight cancelled, all 5 pages to do, the root recorded",
			s.Cancelled, c.Todo(), len(c.Records()))
	}
}

// interruptOnArrival crawls a root linking to four pages that wait for
// release before they give answer, one at a time (PerHost 1), and interrupts
// the crawl when the first of them is on the wire. It returns the
// crawler, and whether it said it was stopping right after the interrupt.
func interruptOnArrival(t *testing.T, grace time.Duration, release chan struct{}, answer http.HandlerFunc) (*crawler.Crawler, bool) {
	t.Helper()
	arrived := make(chan struct{}, 4)
	wait := func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-release:
			answer(w, r)
		case <-r.Context().Done():
		}
	}
	srv, _ := newSite(t, map[string]http.HandlerFunc{
		"/": html("/p1", "/p2", "/p3", "/p4"), "/p1": wait, "/p2": wait, "/p3": wait, "/p4": wait,
	})
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := crawler.New(l, crawler.Config{Roots: []string{srv.URL}, NoRobots: true, PerHost: 1, Grace: grace})
	if err != nil {
		t.Fatal(err)
	}
	stopping := make(chan bool, 1)
	go func() {
		<-arrived
		l.CallSoonThreadsafe(func() {
			before := c.Stopping()
			c.Interrupt()
			stopping <- !before && c.Stopping()
			if release != nil {
				close(release)
			}
		})
	}()
	guard := l.CallLater(30*time.Second, func() { t.Error("crawl hung"); l.Stop() })
	task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) })
	guard.Cancel()
	return c, <-stopping
}

// One Interrupt starts nothing new, but lets what is in flight finish
// within the grace period: recorded, not cancelled, and the pages never
// sent left to do.
func TestAnInterruptLetsWhatIsInFlightFinish(t *testing.T) {
	c, stopping := interruptOnArrival(t, time.Hour, make(chan struct{}), html())
	s := c.Stats()
	if !stopping || !s.Interrupted || s.Cancelled != 0 || c.Todo() != 3 || len(c.Records()) != 2 {
		t.Fatalf("stopping %v, interrupted %v, cancelled %d, todo %d, recorded %d; want the page in flight recorded, 3 to do",
			stopping, s.Interrupted, s.Cancelled, c.Todo(), len(c.Records()))
	}
	for _, r := range c.Records() {
		if status(r) != 200 {
			t.Errorf("%s: %+v", r.URL, r)
		}
	}
}

// A page still in flight when the grace period ends is cancelled, and
// counts to do.
func TestTheGracePeriodEndsWhatIsInFlight(t *testing.T) {
	c, _ := interruptOnArrival(t, 50*time.Millisecond, nil, nil)
	s := c.Stats()
	if !s.Interrupted || s.Cancelled != 1 || c.Todo() != 4 || len(c.Records()) != 1 {
		t.Fatalf("interrupted %v, cancelled %d, todo %d, recorded %d; want the page in flight cancelled, 4 to do",
			s.Interrupted, s.Cancelled, c.Todo(), len(c.Records()))
	}
}

// A page that fails after an interrupt is not retried: recorded as it
// failed, not left to do.
func TestNothingIsRetriedAfterAnInterrupt(t *testing.T) {
	c, _ := interruptOnArrival(t, time.Hour, make(chan struct{}), func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusInternalServerError)
	})
	recs := c.Records()
	if s := c.Stats(); s.Retries != 0 || c.Todo() != 3 || len(recs) != 2 || status(recs[1]) != 500 || recs[1].Tries != 1 {
		t.Fatalf("%d retries, todo %d, records %d; want the failed page recorded once, 3 to do", s.Retries, c.Todo(), len(recs))
	}
}
