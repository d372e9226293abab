package http1_test

import (
	"net/http"
	"testing"

	"loopkit/crawler/http1"
)

// With MaxConnsPerHost left at zero, a host gets 16 connections: twenty
// requests sent at once open sixteen, and the other four wait for one of
// them. The server counts the connections it accepted.
func TestDefaultConnectionCapIsSixteen(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	l, c := onLoop(t, http1.Options{})
	fs := openMany(t, c, srv.URL, 20)
	if n := c.OpenConns(); n != 16 {
		t.Errorf("%d connections opened for 20 requests, want 16", n)
	}
	for _, f := range fs {
		if _, err := await(t, l, f); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.conns.Load(); n != 16 {
		t.Errorf("the server accepted %d connections, want 16", n)
	}
}

// Left empty, User-Agent and Accept take the documented defaults; set,
// they are sent as given.
func TestDefaultAndGivenUserAgentAndAccept(t *testing.T) {
	type fields struct{ ua, accept string }
	seen := make(chan fields, 2)
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- fields{r.Header.Get("User-Agent"), r.Header.Get("Accept")}
	}))
	for _, tc := range []struct {
		opts http1.Options
		want fields
	}{
		{http1.Options{}, fields{"loopkit/0.1 (+https://example.invalid/loopkit)",
			"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}},
		{http1.Options{UserAgent: "ua/1", Accept: "text/plain"}, fields{"ua/1", "text/plain"}},
	} {
		l, c := onLoop(t, tc.opts)
		if _, err := get(t, l, c, srv.URL); err != nil {
			t.Fatal(err)
		}
		if got := <-seen; got != tc.want {
			t.Errorf("server saw %+v, want %+v", got, tc.want)
		}
	}
}
