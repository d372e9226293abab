package loop

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// Generations wrap round past 0 and all-ones, which are never a live
// watch's: 0 is no watch's, and all-ones is netpoll's own (its wake-up).
func TestWatchGenerationsSkipZeroAndAllOnes(t *testing.T) {
	l, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var gens []uint32
	l.gen = 1<<32 - 3
	for fd := 1000; fd < 1003; fd++ {
		gens = append(gens, l.newWatch(fd, false).gen)
		l.watches.remove(fd)
	}
	l.gen = 1<<32 - 1 // as if a watch had somehow been given it
	gens = append(gens, l.newWatch(1003, false).gen)
	l.watches.remove(1003)
	if want := []uint32{1<<32 - 2, 1, 2, 1}; !equalGens(gens, want) {
		t.Fatalf("generations %v, want %v", gens, want)
	}
}

func equalGens(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The fd one past the table's end has no watch, as any other past it.
func TestFDTableEndIsNotAnEntry(t *testing.T) {
	var tab fdTable
	tab.set(5, &watch{fd: 5})
	if got := tab.get(len(tab)); got != nil {
		t.Fatalf("get(len) = %v", got)
	}
}

// A wake-up with nothing to read or accept (another party took it, or the
// poller woke the loop for nothing) leaves the operation pending.
func TestASpuriousWakeUpLeavesTheOperationPending(t *testing.T) {
	l, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	FailOnPanic(t, l)
	lfd, addr, err := l.Listen(netip.MustParseAddrPort("127.0.0.1:0"))
	if err != nil {
		t.Fatal(err)
	}
	acc := l.SockAccept(lfd)
	l.watches.get(lfd).reader() // nobody is connecting
	if acc.Done() {
		t.Fatalf("an accept woken with no connection finished: %v", acc.Err())
	}
	client := await(t, l, l.SockConnect(addr))
	await(t, l, acc)
	recv := l.SockRecv(client, make([]byte, 8))
	l.watches.get(client).reader() // nothing was sent
	if recv.Done() {
		t.Fatalf("a recv woken with no data finished: %v", recv.Err())
	}
}

// A PanicInfo that reports a misuse says what the misuse was, and only a
// real panic is called one.
func TestPanicInfoCallsOnlyAPanicAPanic(t *testing.T) {
	p := PanicInfo{Value: "boom", Stack: []byte("the stack")}
	m := PanicInfo{Value: misuse{errors.New("fd 7 was closed while the loop watched it")}, Stack: []byte("the stack")}
	if s := p.String(); !strings.HasPrefix(s, "loop: callback panicked: boom") || !strings.Contains(s, "the stack") {
		t.Errorf("a panic reads %q", s)
	}
	if s := m.String(); !strings.HasPrefix(s, "fd 7 was closed") || strings.Contains(s, "panicked") {
		t.Errorf("a misuse reads %q", s)
	}
}
