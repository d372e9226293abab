//go:build !e2e

package crawler

import "testing"

// TestTheSeamIsTypeChecked stands in, in a plain go test, for the seam
// checks that need go/types (seam_test.go): it says where they are.
func TestTheSeamIsTypeChecked(t *testing.T) {
	t.Skip("the seam checks type-check the package with go/types, which would add some twenty packages to a first build: go test -tags e2e runs them, as CI does")
}
