package loop_test

import (
	"os"
	"strings"
	"testing"

	"loopkit/loop"
)

// SetPanicHandler(nil) puts the default back: it prints the panic to
// stderr, and the loop goes on with the next callback.
func TestTheDefaultPanicHandlerPrintsAndTheLoopGoesOn(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.SetPanicHandler(func(loop.PanicInfo) { t.Error("the replaced handler heard a panic") })
	l.SetPanicHandler(nil)
	out, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	stderr := os.Stderr
	os.Stderr = out
	defer func() { os.Stderr = stderr }()
	ran := false
	l.CallSoon(func() { panic("a bad callback") })
	l.CallSoon(func() { ran = true; l.Stop() })
	run(t, l)
	os.Stderr = stderr
	printed, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !ran || !strings.Contains(string(printed), "loop: callback panicked: a bad callback") {
		t.Fatalf("next callback ran: %v; stderr: %q", ran, printed)
	}
}
