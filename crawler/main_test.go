package crawler

import (
	"flag"
	"os"
	"testing"
)

// TestMain lets more of the package's tests run at once than go test's
// default, one per processor. Most of the slow ones spend their seconds
// waiting, on a Retry-After or a rate limiter, not computing: on two
// processors, two at a time left the package waiting 30 s. An explicit
// -parallel on the command line still wins.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.parallel"); f != nil && !isSet("test.parallel") {
		f.Value.Set("8")
	}
	os.Exit(m.Run())
}

func isSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
