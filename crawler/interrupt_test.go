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
