package harness

import (
	"os"
	"testing"
)

// The end-to-end tests run this test binary as the site and variant
// children, as cmd/bench runs itself.
func TestMain(m *testing.M) {
	if IsChild() {
		os.Exit(ChildMain(os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
