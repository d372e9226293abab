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
