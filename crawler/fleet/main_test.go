package fleet

import (
	"flag"
	"os"
	"testing"
)

// TestMain lets the package's tests run eight at a time, not one per
// processor: each starts its own redis-server and spends its seconds
// waiting on leases and servers, not computing. An explicit -parallel on
// the command line still wins.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", "8")
	}
	os.Exit(m.Run())
}
