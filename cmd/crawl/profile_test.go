package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// --cpuprofile writes a CPU profile of the crawl, in pprof's format: a
// gzipped protocol buffer whose sample types are CPU samples and
// nanoseconds. Seen failing with the profile stopped before it started
// (an empty file).
func TestCPUProfileIsWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-q", "--demo_pages", "100", "--cpuprofile", path}, &stdout, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("not gzipped, as a pprof profile is: %v", err)
	}
	raw, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"samples", "cpu", "nanoseconds"} {
		if !bytes.Contains(raw, []byte(s)) {
			t.Errorf("the profile does not name %q among its sample types", s)
		}
	}
	if code := run([]string{"-q", "--cpuprofile", filepath.Join(t.TempDir(), "no", "such", "dir")}, &stdout, &stderr, nil); code != 2 {
		t.Errorf("a profile that cannot be created: exit %d, want 2", code)
	}
}
