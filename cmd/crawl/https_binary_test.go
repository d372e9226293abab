package main

import (
	"path/filepath"
	"strings"
	"testing"

	"loopkit/internal/wirelog"
)

// The real command against a local https server whose certificate comes
// from a test CA: without --ca it fails, saying which host and why; with
// it, it crawls the site, over one keep-alive connection when one request
// at a time is allowed; with --insecure it crawls too, and says loudly
// that nothing was verified.
func TestHTTPSRootNeedsTheCA(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.HostTLS("h", wirelog.Fan(5, nil))
	host := strings.TrimPrefix(base, "https://")
	caFile := srv.CA().WriteFile(t, t.TempDir())

	c := startCrawl(t, base+"/")
	if code := c.exit(t); code != 1 {
		t.Fatalf("without --ca: exit %d, want 1; stderr: %s", code, c.stderr.String())
	}
	want := "TLS handshake with " + host + ": tls: failed to verify certificate: x509: certificate signed by unknown authority"
	if !strings.Contains(c.stderr.String(), want) {
		t.Fatalf("without --ca, stderr does not say %q:\n%s", want, c.stderr.String())
	}
	if n := len(srv.Arrivals("h")); n != 0 {
		t.Fatalf("without --ca, %d requests reached the server", n)
	}

	out := filepath.Join(t.TempDir(), "out.jsonl")
	c = startCrawl(t, "--ca", caFile, "--per_host", "1", "-o", out, base+"/")
	if code := c.exit(t); code != 0 {
		t.Fatalf("with --ca: exit %d; stderr: %s", code, c.stderr.String())
	}
	if recs := readJSONL(t, out); len(recs) != 6 || reportCount(t, c.stdout.String(), "Done") != 6 {
		t.Fatalf("with --ca: %d records, report:\n%s", len(recs), head(c.stdout.String()))
	}
	// robots.txt and six pages, one request at a time: one connection.
	if arrived, conns := len(srv.Arrivals("h")), srv.Conns("h"); arrived != 7 || conns != 1 {
		t.Fatalf("with --ca: %d requests on %d connections, want 7 on 1", arrived, conns)
	}

	c = startCrawl(t, "-q", "--insecure", base+"/")
	if code := c.exit(t); code != 0 || !strings.Contains(c.stderr.String(), "WARNING: --insecure") {
		t.Fatalf("--insecure -q: exit %d, stderr %q; want 0 and a warning", code, c.stderr.String())
	}
}
