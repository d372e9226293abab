package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"loopkit/internal/testca"
	"loopkit/internal/wirelog"
)

// What a server chooses reaches the terminal escaped: a Content-Type, or
// the names in its certificate, that hold escape sequences (here: red
// text, a bell, a window title) are printed as \x1b[31m..., in the report
// on stdout and in -v's lines and the failure notices on stderr. The
// JSON Lines keep the server's bytes: JSON escapes them itself.
func TestServerTextReachesTheTerminalEscaped(t *testing.T) {
	t.Run("Content-Type", func(t *testing.T) {
		srv := wirelog.New(t)
		base := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/\x1b[31mred\a")
			w.Write([]byte("a page"))
		}))
		out := t.TempDir() + "/out.jsonl"
		c := startCrawl(t, "-v", "-o", out, base+"/")
		if code := c.exit(t); code != 0 {
			t.Fatalf("exit %d; stderr: %s", code, c.stderr.String())
		}
		for name, s := range map[string]string{"stdout": c.stdout.String(), "stderr": c.stderr.String()} {
			if !strings.Contains(s, base+`/ 200 text/\x1b[31mred\a`) {
				t.Errorf("%s does not show the Content-Type escaped:\n%s", name, head(s))
			}
		}
		noControlBytes(t, c)
		if recs := readJSONL(t, out); len(recs) != 1 || recs[0]["content_type"] != "text/\x1b[31mred\a" {
			t.Errorf("the JSON Lines changed the server's Content-Type: %v", recs)
		}
	})

	t.Run("certificate names", func(t *testing.T) {
		ca := testca.New(t)
		srv := httptest.NewUnstartedServer(http.NotFoundHandler())
		srv.TLS = ca.ServerConfig(t, "\x1b]0;pwned\a.example", "\x1b[2J.example")
		srv.StartTLS()
		t.Cleanup(srv.Close)
		url := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/"
		c := startCrawl(t, "-v", "--max_tries", "1", "--ca", ca.WriteFile(t, t.TempDir()), url)
		if code := c.exit(t); code != 1 {
			t.Fatalf("exit %d, want 1; stderr: %s", code, c.stderr.String())
		}
		want := `x509: certificate is valid for \x1b]0;pwned\a.example, \x1b[2J.example, not localhost`
		for name, s := range map[string]string{"stdout": c.stdout.String(), "stderr": c.stderr.String()} {
			if !strings.Contains(s, want) {
				t.Errorf("%s does not say %q:\n%s", name, want, head(s))
			}
		}
		noControlBytes(t, c)
	})
}

// noControlBytes fails the test if the command printed any control byte
// but the line feed.
func noControlBytes(t *testing.T, c *crawlCmd) {
	t.Helper()
	for name, b := range map[string][]byte{"stdout": c.stdout.Bytes(), "stderr": c.stderr.Bytes()} {
		if i := bytes.IndexFunc(b, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f }); i >= 0 {
			t.Errorf("%s holds control byte %#x: %q", name, b[i], b[max(0, i-40):min(len(b), i+40)])
		}
	}
}
