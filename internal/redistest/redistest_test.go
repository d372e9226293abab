package redistest

import (
	"errors"
	"testing"
)

// A server started on a port another test's server already answers is
// refused, not taken for the other one: the other test would stop it
// under this one.
func TestAPortAnsweredByAnotherServerIsRefused(t *testing.T) {
	first := Start(t, Options{})
	second := &Server{Dir: t.TempDir(), t: t, Port: first.Port}
	t.Cleanup(second.cleanup)
	err := second.start()
	if !errors.Is(err, errNotOurs) {
		t.Fatalf("a second server on port %d: %v; want %v", first.Port, err, errNotOurs)
	}
	if second.Running() {
		t.Fatal("the second server is still running after it was refused")
	}
	if err := first.ping(); err != nil {
		t.Fatalf("the first server after the refusal: %v", err)
	}
}
