package resp_test

import (
	"strings"
	"testing"

	"loopkit/crawler/resp"
)

func TestParseURL(t *testing.T) {
	cases := []struct {
		in   string
		want resp.URL
	}{
		{"redis://127.0.0.1", resp.URL{Host: "127.0.0.1", Port: 6379}},
		{"redis://localhost:6380/", resp.URL{Host: "localhost", Port: 6380}},
		{"redis://127.0.0.1:6379/3", resp.URL{Host: "127.0.0.1", Port: 6379, DB: 3}},
		{"redis://:s3cret@h:1/0", resp.URL{Host: "h", Port: 1, Password: "s3cret"}},
		{"redis://crawler:p%40ss@h/2", resp.URL{Host: "h", Port: 6379, User: "crawler", Password: "p@ss", DB: 2}},
		{"redis://[::1]:7000", resp.URL{Host: "::1", Port: 7000}},
		{"redis://h:65535/1", resp.URL{Host: "h", Port: 65535, DB: 1}}, // the last port there is
	}
	for _, tc := range cases {
		got, err := resp.ParseURL(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

// What the client cannot honour is refused with a reason, and an error
// never shows the password.
func TestParseURLRefuses(t *testing.T) {
	cases := []struct{ in, mention string }{
		{"rediss://h", "TLS"},
		{"http://h", "scheme"},
		{"redis://", "no host"},
		{"redis:h", "no host"},
		{"redis://h:0", "port"},
		{"redis://h:70000", "port"},
		{"redis://h:65536", "port"},
		{"redis://h/x", "database"},
		{"redis://h/-1", "database"},
		{"redis://h/+1", "database"},
		{"redis://h/1/2", "database"},
		{"redis://h?db=1", "query"},
		{"redis://h/0#db1", "fragment"},
		{"redis://user@h", "password"},
		{"redis://user:@h", "password"},
		{"redis://u:hunter2@h/x", "database"},
	}
	for _, tc := range cases {
		_, err := resp.ParseURL(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.mention) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: %v; want an error mentioning %q, without the password", tc.in, err, tc.mention)
		}
	}
}

func TestURLStringHidesThePassword(t *testing.T) {
	u, _ := resp.ParseURL("redis://crawler:hunter2@[::1]:7000/4")
	if s := u.String(); strings.Contains(s, "hunter2") || s != "redis://crawler:xxxxx@[::1]:7000/4" {
		t.Fatalf("String() = %q", s)
	}
	if a := u.Addr(); a != "[::1]:7000" {
		t.Fatalf("Addr() = %q", a)
	}
}
