package netpoll

import (
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A wake-up descriptor closed behind the poller's back is an error that
// says so: from poll's Wait, and from each poller's Close.
func TestAClosedWakeFDIsAnError(t *testing.T) {
	p, err := openPoll()
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(p.(*poller).wake.rfd)
	if _, err := p.Wait(0); err == nil || !strings.Contains(err.Error(), "wake-up descriptor was closed") {
		t.Errorf("poll's Wait with its wake fd closed: %v", err)
	}
	if err := p.Close(); err == nil {
		t.Error("poll's Close hid the failure to close its wake fd")
	}
	e, err := openEpoll()
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(e.(*epoller).wake.rfd)
	if err := e.Close(); err == nil {
		t.Error("epoll's Close hid the failure to close its wake fd")
	}
}
