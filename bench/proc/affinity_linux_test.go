//go:build linux

package proc

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// A child started pinned runs on the one processor it was given, and the
// parent's thread gets its own mask back.
func TestStartPinnedPinsTheChildOnly(t *testing.T) {
	before := CPUList()
	cmd := exec.Command("grep", "Cpus_allowed_list", "/proc/self/status")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := StartPinned(cmd, []int{0}); err != nil {
		t.Skipf("cannot pin here: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(strings.TrimPrefix(out.String(), "Cpus_allowed_list:")); got != "0" {
		t.Errorf("the child may run on %q, want 0", got)
	}
	if after := CPUList(); after != before {
		t.Errorf("this process went from %q to %q", before, after)
	}
}
