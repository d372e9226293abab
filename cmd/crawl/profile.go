package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the crawl to path (--cpuprofile)
// until the returned function is called: where a page's CPU goes, for
// `go tool pprof`. With no ROOT, the built-in demo site runs in the same
// process and its work is in the profile too; start the site with
// cmd/site to profile the crawl alone.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
