package http1_test

import (
	"fmt"
	"net/http"
	"testing"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// The free list's bounds, seen from the replies: what it keeps is never
// handed to two requests at once, never holds a big body's array, and
// never grows past its size.

// getAll sends every path at once and waits for all the replies.
func getAll(t *testing.T, l *loop.Loop, c *http1.Client, base string, paths []string) []*http1.Reply {
	t.Helper()
	fs := make([]*future.Future[*http1.Reply], len(paths))
	for i, p := range paths {
		fs[i] = c.Do(http1.Request{URL: base + p})
	}
	replies := make([]*http1.Reply, len(paths))
	for i, f := range fs {
		r, err := await(t, l, f)
		if err != nil {
			t.Fatalf("%s: %v", paths[i], err)
		}
		if got := string(r.Body); got != pageOf(paths[i]) || r.Header.Get("X-Path") != paths[i] {
			t.Fatalf("%s: body %q, X-Path %q", paths[i], got, r.Header.Get("X-Path"))
		}
		replies[i] = r
	}
	return replies
}

// pause runs the loop for one turn and a bit: long enough for the last
// callbacks of the futures just awaited to run, so that their records
// are settled and may be reused.
func pause(t *testing.T, l *loop.Loop) {
	t.Helper()
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, task.Pause(y) }); err != nil {
		t.Fatal(err)
	}
}

// A reply released twice goes on the free list once: the next request
// takes its record, and the one after that, sent while the first reply is
// still held, gets another and leaves the first reply as it was.
func TestAReplyReleasedTwiceIsReusedOnce(t *testing.T) {
	base := pageServer(t)
	l, c := onLoop(t, http1.Options{})
	r := getAll(t, l, c, base, []string{"/once"})[0]
	r.Release()
	r.Release()
	pause(t, l)
	first := getAll(t, l, c, base, []string{"/first"})[0]
	pause(t, l)
	second := getAll(t, l, c, base, []string{"/second-one"})[0]
	if first == second || string(first.Body) != pageOf("/first") {
		t.Fatalf("the second request took the record of the first, still held: it now says %q", first.Body)
	}
}

// A record comes back for reuse without a body array over 64 KiB: one
// big page must not keep its memory for the life of the client.
func TestAReleasedBigBodyIsNotKept(t *testing.T) {
	base := pageServer(t)
	l, c := onLoop(t, http1.Options{})
	reply, err := await(t, l, c.Do(http1.Request{URL: base + "/big"}))
	if err != nil || len(reply.Body) != 1<<20 {
		t.Fatalf("/big: %v, %d bytes", err, len(reply.Body))
	}
	reply.Release()
	pause(t, l)
	next := getAll(t, l, c, base, []string{"/small"})[0]
	if next != reply {
		t.Fatal("the released record was not reused: the test cannot see what it kept")
	}
	if cap(next.Body) > 64<<10 {
		t.Fatalf("the reused record's body has room for %d bytes: the big page's array was kept", cap(next.Body))
	}
}

// Releasing more replies than the free list holds loses the extra ones
// to the garbage collector, and every later request still gets a record
// of its own with its own answer.
func TestReleasingMoreThanTheFreeListHoldsIsHarmless(t *testing.T) {
	base := pageServer(t)
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 8})
	paths := make([]string, 300)
	for i := range paths {
		paths[i] = fmt.Sprintf("/a/%d", i)
	}
	for _, r := range getAll(t, l, c, base, paths) {
		r.Release()
	}
	pause(t, l)
	for i := range paths {
		paths[i] = fmt.Sprintf("/b/%d", i)
	}
	seen := map[*http1.Reply]bool{}
	for _, r := range getAll(t, l, c, base, paths) {
		if seen[r] {
			t.Fatal("two requests in flight together were given the same record")
		}
		seen[r] = true
	}
}

// A body array of exactly 64 KiB is kept with its record (only a larger
// one is let go): the next request on the record reads into it.
func TestAReleasedBodyOfExactly64KiBIsKept(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := []byte("small")
		if r.URL.Path == "/64k" {
			body = make([]byte, 64<<10)
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.Write(body)
	}))
	l, c := onLoop(t, http1.Options{})
	reply, err := get(t, l, c, srv.URL+"/64k")
	if err != nil || cap(reply.Body) != 64<<10 {
		t.Fatalf("/64k: %v, a body array of %d bytes, want exactly 64 KiB", err, cap(reply.Body))
	}
	reply.Release()
	pause(t, l)
	next, err := get(t, l, c, srv.URL+"/small")
	if err != nil || next != reply || string(next.Body) != "small" {
		t.Fatalf("/small: %v, reused %v, body %q", err, next == reply, next.Body)
	}
	if cap(next.Body) != 64<<10 {
		t.Fatalf("the reused record's body has room for %d bytes, want the 64 KiB array kept", cap(next.Body))
	}
}

// The free list keeps 256 records: of 300 released, the next 300 requests
// get exactly 256 back.
func TestTheFreeListKeeps256Records(t *testing.T) {
	base := pageServer(t)
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 8})
	paths := make([]string, 300)
	for i := range paths {
		paths[i] = fmt.Sprintf("/a/%d", i)
	}
	released := map[*http1.Reply]bool{}
	for _, r := range getAll(t, l, c, base, paths) {
		released[r] = true
		r.Release()
	}
	pause(t, l)
	for i := range paths {
		paths[i] = fmt.Sprintf("/b/%d", i)
	}
	reused := 0
	for _, r := range getAll(t, l, c, base, paths) {
		if released[r] {
			reused++
		}
	}
	if reused != 256 {
		t.Fatalf("%d records reused, want 256", reused)
	}
}
