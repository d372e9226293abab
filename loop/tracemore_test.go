package loop_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/netpoll"
)

// The trace names each change of an fd's interest for what it is: the
// first callback registers, the next and the removal of one modify, the
// removal of the last deregisters.
func TestTraceNamesEachChangeOfInterest(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, turns := tracedLoop(t, name)
			defer l.Close()
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			fd := int(r.Fd())
			l.AddReader(fd, func() {})
			l.AddWriter(fd, func() {})
			l.RemoveReader(fd)
			l.RemoveWriter(fd)
			l.CallSoon(l.Stop)
			run(t, l)
			var got []string
			for _, s := range steps(*turns) {
				if s.fd == fd {
					got = append(got, fmt.Sprintf("%s r=%v w=%v", s.what, s.op.Read, s.op.Write))
				}
			}
			want := "[register r=true w=false modify r=true w=true modify r=false w=true deregister r=false w=false]"
			if fmt.Sprint(got) != want {
				t.Fatalf("traced %v,\nwant %s", got, want)
			}
		})
	}
}

// poll(2) reports an fd closed while registered as invalid, and the trace
// says so of that fd.
func TestTraceMarksAnFDThatPollFoundClosed(t *testing.T) {
	l, turns := tracedLoop(t, "poll")
	defer l.Close()
	panics := loop.CatchPanics(t, l)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	fd := int(r.Fd())
	if err := l.AddReader(fd, func() { t.Error("the reader of a closed fd ran") }); err != nil {
		t.Fatal(err)
	}
	r.Close() // behind the loop's back
	l.CallLater(time.Millisecond, l.Stop)
	run(t, l)
	var invalid []loop.Ready
	for _, it := range *turns {
		for _, rd := range it.Ready {
			if rd.Invalid {
				invalid = append(invalid, rd)
			}
		}
	}
	if len(invalid) != 1 || invalid[0].FD != fd || len(*panics) != 1 {
		t.Fatalf("invalid fds traced %v, misuses reported %d; want fd %d once, one misuse", invalid, len(*panics), fd)
	}
}

// The trace of two connects: the socket of the one that succeeds is
// reported writable, not readable; the one refused shows its errno's
// name; and a record made outside a turn carries the time it was made.
func TestTraceOfAConnectThatSucceedsAndOneRefused(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, turns := tracedLoop(t, name)
			defer l.Close()
			lfd, addr, err := l.Listen(loopback)
			if err != nil {
				t.Fatal(err)
			}
			fd, err := runFor(t, l, l.SockConnect(addr))
			if err != nil {
				t.Fatal(err)
			}
			l.SockClose(lfd) // nothing listens there now: the next connect is refused
			before := l.Time()
			if _, err := runFor(t, l, l.SockConnect(addr)); err == nil {
				t.Fatal("a connect to a closed port succeeded")
			}
			var ready []loop.Ready
			var refused, outsideLate bool
			for _, it := range *turns {
				for _, r := range it.Ready {
					if r.FD == fd && it.Start < before {
						ready = append(ready, r)
					}
				}
				for _, op := range it.Ops {
					refused = refused || (op.Name == "getsockopt" || op.Name == "connect") && op.Err == "ECONNREFUSED"
				}
				outsideLate = outsideLate || it.Outside && it.Start >= before && it.End == it.Start
			}
			if len(ready) != 1 || !ready[0].Write || ready[0].Read || ready[0].Invalid {
				t.Errorf("the connecting socket was traced as %+v, want once writable only", ready)
			}
			if !refused || !outsideLate {
				t.Errorf("traced a refused connect %v, a record outside a turn at its time %v", refused, outsideLate)
			}
		})
	}
}
