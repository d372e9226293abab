// Package e2e lets a slow end-to-end test step aside from a learner's
// first go test ./..., by name and with its reason, while CI still runs
// it. It sits beside the tests, below nothing: only _test.go files
// import it.
//
// The tests it guards wait on purpose — a server's Retry-After, a
// fleet's lease running out, a fault proxy cutting replies for seconds —
// so they cannot be made quick without testing something else. They run
// when the e2e build tag is set: go test -tags e2e ./... runs every test,
// and .ci/run does so.
package e2e

import "testing"

// Only skips t unless the e2e build tag is set, saying why the test is
// slow and how to run it. Call it first in the test.
func Only(t testing.TB, why string) {
	t.Helper()
	if !enabled {
		t.Skipf("slow end-to-end test (%s): go test -tags e2e runs it, as CI does", why)
	}
}

// On says whether the slow end-to-end tests run: a test that can check a
// sample quickly and everything slowly asks it which to do.
func On() bool { return enabled }
