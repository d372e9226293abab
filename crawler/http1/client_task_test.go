package http1_test

import (
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/task"
)

// Head from a task sends the HEAD method, and its reply carries the
// announced length without a body (the server did send the page for GET).
func TestHeadFromATaskSendsHEADAndReadsNoBody(t *testing.T) {
	var mu sync.Mutex
	var methods []string
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		methods = append(methods, r.Method)
		mu.Unlock()
		w.Header().Set("Content-Length", "5")
		w.Write([]byte("hello"))
	}))
	l, c := onLoop(t, http1.Options{})
	guard := l.CallLater(30*time.Second, func() { t.Error("hung"); l.Stop() })
	r, err := task.Run(l, func(y task.Yield) (*http1.Reply, error) { return c.Head(y, srv.URL+"/") })
	guard.Cancel()
	if err != nil || r.StatusCode != 200 || len(r.Body) != 0 || r.ContentLength != 5 {
		t.Fatalf("Head: %+v, %v", r, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(methods) != 1 || methods[0] != "HEAD" {
		t.Fatalf("the server saw %v, want [HEAD]", methods)
	}
}

// A timeout's message names its phase and its duration.
func TestTimeoutErrorMessageNamesThePhaseAndTheDuration(t *testing.T) {
	err := error(&http1.TimeoutError{Phase: "header", After: 250 * time.Millisecond})
	if got, want := err.Error(), "http1: header timeout after 250ms"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if !errors.Is(err, http1.ErrTimeout) || errors.Is(err, http1.ErrTruncated) {
		t.Fatal("a TimeoutError must match ErrTimeout and nothing else")
	}
}
