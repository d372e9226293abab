package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/docs/stages/internal/stagetest"
	"loopkit/loop"
)

// event is one thing the loop's trace says happened, in time order.
type event struct {
	what string // "wait", "ready", "posted", or an Op's name
	it   loop.Iteration
	op   loop.Op
	fd   int
}

func (e event) String() string {
	switch e.what {
	case "wait":
		return fmt.Sprintf("turn %d: wait(timeout %v) slept %v, posted %d", e.it.N, e.it.Timeout, e.it.Asleep, e.it.Posted)
	case "ready":
		return fmt.Sprintf("turn %d: fd %d ready", e.it.N, e.fd)
	case "posted":
		return fmt.Sprintf("turn %d: %d posted callback(s) taken (polled: %v)", e.it.N, e.it.Posted, e.it.Polled)
	}
	return fmt.Sprintf("turn %d: %s fd %d n %d %s", e.it.N, e.what, e.fd, e.op.N, e.op.Err)
}

// The system calls docs/kernel.md walks through, in its order, read from
// the loop's own trace rather than strace, so that the chapter cannot
// drift from the code: socket, connect (EINPROGRESS), register for
// writing, a wait that returns the socket writable, getsockopt (SO_ERROR),
// the write of the request, register for reading, a wait with the
// deadline's timeout that returns the socket readable, the reads (the
// last one 0 bytes: EOF), deregister, close — and then the executor's
// result, posted from its goroutine. Under strace, which slows the loop,
// that post always ends a wait through the eventfd; at full speed the
// result may come before the loop has gone to sleep, and the turn takes
// it without waiting. Either way it is a turn with one post and no ready
// fd: the eventfd is drained inside the poller and never reported.
func TestTheKernelChaptersSequence(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var events []event
	trace := func(it *loop.Iteration) {
		c := *it
		c.Ready, c.Ops = slices.Clone(it.Ready), slices.Clone(it.Ops)
		if c.Polled {
			events = append(events, event{what: "wait", it: c, fd: -1})
		}
		for _, r := range c.Ready {
			events = append(events, event{what: "ready", it: c, fd: r.FD})
		}
		if c.Posted > 0 {
			events = append(events, event{what: "posted", it: c, fd: -1})
		}
		for _, op := range c.Ops {
			events = append(events, event{what: op.Name, it: c, op: op, fd: op.FD})
		}
	}
	var out strings.Builder
	if err := run(&out, "", 5*time.Millisecond, trace, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), ": 200, ") || !strings.Contains(out.String(), " words (counted off the loop)") {
		t.Fatalf("no page, or no count: %q", out.String())
	}

	fd := -1
	is := func(what string) func(e, prev event) bool {
		return func(e, _ event) bool { return e.what == what && e.fd == fd }
	}
	want := []struct {
		says  string
		match func(e, prev event) bool
	}{
		{"socket", func(e, _ event) bool {
			if e.what == "socket" {
				fd = e.fd
			}
			return e.what == "socket"
		}},
		{"connect → EINPROGRESS", func(e, _ event) bool {
			return e.what == "connect" && e.fd == fd && e.op.Err == "EINPROGRESS"
		}},
		{"register for writing", func(e, _ event) bool { return is("register")(e, e) && e.op.Write && !e.op.Read }},
		{"a wait", func(e, _ event) bool { return e.what == "wait" }},
		{"…that returns the socket writable", func(e, w event) bool { return is("ready")(e, e) && e.it.N == w.it.N }},
		{"getsockopt: connected", func(e, _ event) bool { return is("getsockopt")(e, e) && e.op.Err == "" }},
		{"the request written whole", func(e, _ event) bool { return is("write")(e, e) && e.op.N > 0 }},
		{"register for reading", func(e, _ event) bool { return is("register")(e, e) && e.op.Read && !e.op.Write }},
		{"a wait with the deadline's timeout", func(e, _ event) bool {
			return e.what == "wait" && e.it.Timeout > 0 && e.it.Timeout <= deadline
		}},
		{"…that returns the socket readable", func(e, w event) bool { return is("ready")(e, e) && e.it.N == w.it.N }},
		{"a read of the page", func(e, _ event) bool { return is("read")(e, e) && e.op.N > 0 }},
		{"a read of 0 bytes: EOF", func(e, _ event) bool { return is("read")(e, e) && e.op.N == 0 && e.op.Err == "" }},
		{"deregister", is("deregister")},
		{"close", is("close")},
		{"the executor's post (through the eventfd)", func(e, _ event) bool {
			return e.what == "posted" && e.it.Posted == 1 && len(e.it.Ready) == 0
		}},
	}
	i, prev := 0, event{}
	for _, e := range events {
		if i < len(want) && want[i].match(e, prev) {
			i, prev = i+1, e
		}
	}
	if i < len(want) {
		var b strings.Builder
		for _, e := range events {
			fmt.Fprintln(&b, e)
		}
		t.Fatalf("the trace lacks step %d, %q, after %q; what it has:\n%s", i+1, want[i].says, want[max(i-1, 0)].says, b.String())
	}
}
