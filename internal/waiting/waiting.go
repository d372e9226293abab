// Package waiting lets a test package whose slow tests wait, rather than
// compute, run more of them at once.
//
// go test runs a package's parallel tests one per processor by default.
// On a two-processor machine that means two at a time, even when each of
// them spends its seconds asleep: on a Retry-After, a read timeout, a
// rate limiter. Such a package calls Parallel from its TestMain, and its
// waiting tests overlap their waits.
//
// internal/waiting sits beside the tests: crawler, crawler/http1 and
// crawler/fleet use it. Their tests that count allocations, descriptors
// or goroutines stay sequential, since go test runs those alone, before
// any parallel test.
package waiting

import (
	"flag"
	"strconv"
)

// Parallel raises go test's -parallel to n, unless the command line gave
// it: an explicit -parallel still wins. Call it in TestMain, before m.Run.
func Parallel(n int) {
	flag.Parse()
	f := flag.Lookup("test.parallel")
	if f == nil || given("test.parallel") {
		return
	}
	f.Value.Set(strconv.Itoa(n))
}

// given reports whether the command line set the flag called name.
func given(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
