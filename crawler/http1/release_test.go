package http1_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"loopkit/crawler/http1"
	"loopkit/task"
)

// pageOf is what the release tests' server answers for path: a body of
// its own length, so that a reused array that kept old bytes shows.
func pageOf(path string) string {
	return strings.Repeat(path+";", 1+len(path)%7)
}

func pageServer(t *testing.T) string {
	s := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Path", r.URL.Path)
		if r.URL.Path == "/big" { // more than one read: its head comes alone
			w.Write(make([]byte, 1<<20))
			return
		}
		fmt.Fprint(w, pageOf(r.URL.Path))
	}))
	return s.URL
}

// A task that releases each reply gets every next answer whole and right,
// though each lands in a record an earlier one released: its Header, its
// Body's array. A reply kept (never released) is never reused. Seen
// failing with freeList.pop not asking whether the oldest record is
// settled: the connection's done callback of the released request then
// ran on the next request's future.
func TestReleasedRecordsCarryTheNextAnswersIntact(t *testing.T) {
	base := pageServer(t)
	l, c := onLoop(t, http1.Options{})
	var kept *http1.Reply
	_, err := task.Run(l, func(y task.Yield) (int, error) {
		for i := range 60 {
			path := fmt.Sprintf("/p/%d", i)
			reply, err := c.Get(y, base+path)
			if err != nil {
				return 0, err
			}
			if got := string(reply.Body); got != pageOf(path) || reply.Header.Get("X-Path") != path || reply.URL != base+path {
				return 0, fmt.Errorf("request %d: body %q, X-Path %q, URL %q", i, got, reply.Header.Get("X-Path"), reply.URL)
			}
			if i == 10 {
				kept = reply
				continue
			}
			reply.Release()
		}
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(kept.Body); got != pageOf("/p/10") || kept.Header.Get("X-Path") != "/p/10" {
		t.Errorf("the reply kept was overwritten: body %q, X-Path %q", got, kept.Header.Get("X-Path"))
	}
}

// Release is for a reply whose request is over and left nothing behind.
// A body skipped when only the head had come (WantBody) is still being
// read, into the reply's Response, by its connection: that record is not
// reused, so the reply still says what it said. A released one is reused
// by the next request, which is how the test tells them apart.
// Seen failing with Release ignoring recyclable (the skipped reply's URL
// became the next request's).
func TestReleaseReusesOnlyWhatIsOver(t *testing.T) {
	base := pageServer(t)
	l, c := onLoop(t, http1.Options{})
	_, err := task.Run(l, func(y task.Yield) (int, error) {
		skipped, err := c.Fetch(y, http1.Request{URL: base + "/big", WantBody: func(*http1.Response) bool { return false }})
		if err != nil || !skipped.BodySkipped {
			return 0, fmt.Errorf("skipped: %v, %v", err, skipped)
		}
		skipped.Release()
		if err := task.Pause(y); err != nil { // as below: a turn to settle
			return 0, err
		}
		if _, err := c.Get(y, base+"/after-skipped"); err != nil {
			return 0, err
		}
		if skipped.URL != base+"/big" {
			t.Errorf("a skipped reply was reused: its URL is now %s", skipped.URL)
		}

		released, err := c.Get(y, base+"/released")
		if err != nil {
			return 0, err
		}
		released.Release()
		// A turn for the future's last callback (the connection's) to run:
		// until it has, the record is not reused (freeList.pop).
		if err := task.Pause(y); err != nil {
			return 0, err
		}
		next, err := c.Get(y, base+"/next")
		if err != nil {
			return 0, err
		}
		if next != released {
			t.Errorf("a released reply was not reused by the next request")
		}
		if string(next.Body) != pageOf("/next") {
			t.Errorf("the reused record's body: %q", next.Body)
		}
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
