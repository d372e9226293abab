package site

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"
)

// startSite starts a site on a free loopback port and closes it when the test ends.
func startSite(t *testing.T, cfg Config) *Site {
	t.Helper()
	s, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// newClient is a client that does not follow redirects and has its own pool, closed
// when the test ends.
func newClient(t *testing.T) *http.Client {
	t.Helper()
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{
		Transport:     tr,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// get fetches u and returns the status and the body.
func get(t *testing.T, c *http.Client, u string) (*http.Response, []byte) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading the body: %v", u, err)
	}
	return resp, body
}

// stats reads /stats over HTTP, as a benchmark harness in another process would.
func stats(t *testing.T, c *http.Client, s *Site) Stats {
	t.Helper()
	resp, body := get(t, c, s.URL()+"stats")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /stats: %s", resp.Status)
	}
	var st Stats
	if err := json.Unmarshal(body, &st); err != nil {
		t.Fatalf("GET /stats: %v in %s", err, body)
	}
	return st
}
