package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"loopkit/loop"
)

// The words the traces and the stats line use: what woke a wait, a ready
// fd, a turn's system calls, a duration rounded for reading, a callback's
// name without the module path.
func TestTraceWords(t *testing.T) {
	for _, tc := range []struct {
		it   loop.Iteration
		want string
	}{
		{loop.Iteration{}, "nothing: the wait ran out"},
		{loop.Iteration{Ready: []loop.Ready{{FD: 3}}}, "1 ready fd"},
		{loop.Iteration{Ready: []loop.Ready{{FD: 3}, {FD: 4}}, Timers: 1, Posted: 2},
			"2 ready fds, 1 timer due, 2 callbacks posted by another goroutine"},
		{loop.Iteration{Timers: 3}, "3 timers due"},
		{loop.Iteration{Posted: 1}, "1 callback posted by another goroutine"},
	} {
		if got := wokenBy(&tc.it); got != tc.want {
			t.Errorf("wokenBy: %q, want %q", got, tc.want)
		}
	}
	for _, tc := range []struct {
		fd   int
		r, w bool
		want string
	}{{5, true, false, "fd 5 r"}, {6, false, true, "fd 6 w"}, {7, true, true, "fd 7 rw"}, {8, false, false, "fd 8 "}} {
		if got := fdString(tc.fd, tc.r, tc.w); got != tc.want {
			t.Errorf("fdString(%d, %v, %v): %q, want %q", tc.fd, tc.r, tc.w, got, tc.want)
		}
	}
	ops := []loop.Op{
		{Name: "register", FD: 7, Read: true},
		{Name: "modify", FD: 7, Read: true, Write: true},
		{Name: "read", FD: 7, N: 512},
		{Name: "write", FD: 7, N: 0, Err: "EAGAIN"},
		{Name: "accept", FD: 3, N: 9},
		{Name: "connect", FD: 8, Err: "EINPROGRESS"},
	}
	want := "register fd 7 r, modify fd 7 rw, read fd 7 512 bytes, write fd 7 0 bytes EAGAIN, accept fd 3, connect fd 8 EINPROGRESS"
	if got := string(appendOps([]byte(nil), ops)); got != want {
		t.Errorf("appendOps:\n got %q\nwant %q", got, want)
	}
	for _, tc := range []struct{ d, want time.Duration }{
		{1234567891 * time.Nanosecond, 1235 * time.Millisecond},
		{time.Second, time.Second},
		{1234567 * time.Nanosecond, 1230 * time.Microsecond},
		{time.Millisecond + 4*time.Microsecond, time.Millisecond},
		{999999 * time.Nanosecond, 1000 * time.Microsecond},
		{123456 * time.Nanosecond, 123500 * time.Nanosecond},
		{149 * time.Nanosecond, 100 * time.Nanosecond},
	} {
		if got := round(tc.d); got != tc.want {
			t.Errorf("round(%v) = %v, want %v", tc.d, got, tc.want)
		}
	}
	for name, want := range map[string]string{"": "none", "loopkit/crawler.(*Crawler).fetch": "crawler.(*Crawler).fetch", "main.main": "main.main"} {
		if got := shortFunc(name); got != want {
			t.Errorf("shortFunc(%q) = %q, want %q", name, got, want)
		}
	}
}

// The --trace summary counts turns (not those outside a turn), waits,
// ready fds and the system calls by name, in name order, summed over the
// loops; with several loops each line names its loop.
func TestTraceSummarySumsTheLoops(t *testing.T) {
	a, b := newJSONLWriter(nil, 0, true), newJSONLWriter(nil, 1, true)
	a.write(&loop.Iteration{N: 1, Polled: true, Ready: []loop.Ready{{FD: 3}, {FD: 4}}, Ops: []loop.Op{{Name: "read"}, {Name: "write"}}})
	a.write(&loop.Iteration{Outside: true, Ops: []loop.Op{{Name: "close"}}})
	b.write(&loop.Iteration{N: 1, Polled: false, Ops: []loop.Op{{Name: "read"}}})
	var sum jsonlWriter
	sum.add(a)
	sum.add(b)
	want := "2 turns, 1 waits, 2 ready fds; calls: close 1, read 2, write 1"
	if got := sum.summary(); got != want {
		t.Errorf("summary:\n got %q\nwant %q", got, want)
	}
	for i, w := range []*jsonlWriter{a, b} {
		var line struct {
			Loop *int   `json:"loop"`
			N    uint64 `json:"n"`
		}
		first, _, _ := bytes.Cut(w.out.buf, []byte("\n"))
		if err := json.Unmarshal(first, &line); err != nil || line.Loop == nil || *line.Loop != i {
			t.Errorf("loop %d's first line %s: %v", i, first, err)
		}
	}
	one := newJSONLWriter(nil, 0, false)
	one.write(&loop.Iteration{N: 1})
	if bytes.Contains(one.out.buf, []byte(`"loop"`)) {
		t.Errorf("with one loop a line names it: %s", one.out.buf)
	}
}
