package http1_test

import (
	"errors"
	"net/http"
	"testing"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/internal/wirelog"
)

// A Trace says which connection carried a request and when its phases
// ended, for a request that succeeds and for one that fails: two requests
// on one keep-alive connection share its number, a new connection gets the
// next, and a refused one has none. The phases of a new connection's
// first request come in order, from its DNS lookup on; a reused
// connection's request did neither lookup nor connect.
func TestTraceNamesTheConnectionAndThePhases(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	l, c := onLoop(t, http1.Options{})
	var first, second http1.Trace
	if _, err := await(t, l, c.Do(http1.Request{URL: srv.URL, Trace: &first})); err != nil {
		t.Fatal(err)
	}
	if _, err := await(t, l, c.Do(http1.Request{URL: srv.URL, Trace: &second})); err != nil {
		t.Fatal(err)
	}
	if first.Conn != 1 || second.Conn != 1 {
		t.Fatalf("connections %d and %d, want 1 and 1 (keep-alive)", first.Conn, second.Conn)
	}
	ft := first.Timings
	if !(0 < ft.DNS && ft.DNS <= ft.Connect && ft.Connect <= ft.Written && ft.Written <= ft.FirstByte && ft.FirstByte <= ft.Done) {
		t.Fatalf("phases out of order: %+v", ft)
	}
	if second.Timings.DNS != 0 || second.Timings.Connect != 0 || second.Start < first.Start+first.Timings.Done {
		t.Fatalf("the second request dialled, or started before the first ended: %+v after %+v", second, first)
	}
	var refused http1.Trace
	_, err := await(t, l, c.Do(http1.Request{URL: "http://" + wirelog.ClosedPort(t) + "/", Trace: &refused}))
	if err == nil || refused.Conn != 2 || refused.Timings.Done == 0 || refused.Timings.Written != 0 {
		t.Fatalf("refused: %v, trace %+v; want connection 2, ended, nothing written", err, refused)
	}
	var bad http1.Trace
	if _, err := await(t, l, c.Do(http1.Request{URL: "https://[::1", Trace: &bad})); err == nil || errors.Is(err, http1.ErrTimeout) {
		t.Fatalf("a malformed URL: %v", err)
	}
	if bad.Conn != 0 {
		t.Fatalf("a request that never connected has connection %d", bad.Conn)
	}
}

// A Trace is filled in however the request ends: cancelled by its caller
// too, though the cancel bypasses the client. This one is cancelled while
// its connection, the client's first, is being dialled for it.
func TestTraceOfACancelledRequestIsFilledIn(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	l, c := onLoop(t, http1.Options{})
	var tr http1.Trace
	f := c.Do(http1.Request{URL: srv.URL, Trace: &tr})
	f.Cancel()
	// The future's done callbacks were scheduled by the cancel, ahead of
	// this one.
	settled := future.New[struct{}](l)
	l.CallSoon(func() { settled.SetResult(struct{}{}) })
	await(t, l, settled)
	if tr.Conn != 1 || tr.Timings.Done <= 0 || tr.Timings.Written != 0 {
		t.Fatalf("trace %+v; want connection 1, ended, nothing written", tr)
	}
}
