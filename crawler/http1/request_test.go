package http1_test

import (
	"strings"
	"testing"

	"loopkit/crawler/http1"
)

func TestParseTarget(t *testing.T) {
	tests := []struct {
		raw  string
		want http1.Target
	}{
		{"http://example.com", http1.Target{Scheme: "http", Host: "example.com", Hostname: "example.com", Port: 80, RequestURI: "/"}},
		// The default port is implied, never written in Host.
		{"http://Example.COM:80/a", http1.Target{Scheme: "http", Host: "example.com", Hostname: "example.com", Port: 80, RequestURI: "/a"}},
		{"HTTP://example.com:8080/a/b?c=d&e", http1.Target{Scheme: "http", Host: "example.com:8080", Hostname: "example.com", Port: 8080, RequestURI: "/a/b?c=d&e"}},
		// An empty port means the default one (RFC 3986 §3.2.3).
		{"http://example.com:/x", http1.Target{Scheme: "http", Host: "example.com", Hostname: "example.com", Port: 80, RequestURI: "/x"}},
		// IPv6: brackets in Host, none for the dialer; the fragment stays home.
		{"http://[::1]:8080/a%20b?q=1#f", http1.Target{Scheme: "http", Host: "[::1]:8080", Hostname: "::1", Port: 8080, RequestURI: "/a%20b?q=1"}},
		{"http://[2001:DB8::1]/", http1.Target{Scheme: "http", Host: "[2001:db8::1]", Hostname: "2001:db8::1", Port: 80, RequestURI: "/"}},
		// A zone is for dialing only.
		{"http://[fe80::1%25eth0]:81/", http1.Target{Scheme: "http", Host: "[fe80::1]:81", Hostname: "fe80::1%eth0", Port: 81, RequestURI: "/"}},
		{"http://127.0.0.1:8000/", http1.Target{Scheme: "http", Host: "127.0.0.1:8000", Hostname: "127.0.0.1", Port: 8000, RequestURI: "/"}},
		// Userinfo is never sent.
		{"http://user:secret@example.com/x", http1.Target{Scheme: "http", Host: "example.com", Hostname: "example.com", Port: 80, RequestURI: "/x"}},
		// Escapes are kept as written; what cannot go on the wire is escaped.
		{"http://example.com/%7Efoo/a%2Fb?x=%41+b", http1.Target{Scheme: "http", Host: "example.com", Hostname: "example.com", Port: 80, RequestURI: "/%7Efoo/a%2Fb?x=%41+b"}},
		{"http://example.com/a b/ü?q=a b&r=ü&s=\"<>\"&t=%zz&u=%", http1.Target{Scheme: "http", Host: "example.com", Hostname: "example.com", Port: 80,
			RequestURI: "/a%20b/%C3%BC?q=a%20b&r=%C3%BC&s=%22%3C%3E%22&t=%25zz&u=%25"}},
		// Half an escape at the very end: the "%" is escaped, and nothing
		// is read past the end.
		{"http://example.com/?a=%4", http1.Target{Scheme: "http", Host: "example.com", Hostname: "example.com", Port: 80, RequestURI: "/?a=%254"}},
		// A "%" starts an escape only with two hex digits after it; with
		// one, or none, the "%" itself is escaped.
		{"http://example.com/?a=%4G&b=%G4&c=%41", http1.Target{Scheme: "http", Host: "example.com", Hostname: "example.com", Port: 80, RequestURI: "/?a=%254G&b=%25G4&c=%41"}},
		// "?" with nothing after it is kept: it can matter to the server.
		{"http://example.com/p?", http1.Target{Scheme: "http", Host: "example.com", Hostname: "example.com", Port: 80, RequestURI: "/p?"}},
		{"http://example.com?q", http1.Target{Scheme: "http", Host: "example.com", Hostname: "example.com", Port: 80, RequestURI: "/?q"}},
		// Unicode host names go on the wire as Punycode.
		{"http://Bücher.example/", http1.Target{Scheme: "http", Host: "xn--bcher-kva.example", Hostname: "xn--bcher-kva.example", Port: 80, RequestURI: "/"}},
		// https: 443 is its default port, and only that one goes unwritten.
		{"HTTPS://Example.com/a", http1.Target{Scheme: "https", Host: "example.com", Hostname: "example.com", Port: 443, RequestURI: "/a"}},
		{"https://example.com:443/", http1.Target{Scheme: "https", Host: "example.com", Hostname: "example.com", Port: 443, RequestURI: "/"}},
		{"https://example.com:80/", http1.Target{Scheme: "https", Host: "example.com:80", Hostname: "example.com", Port: 80, RequestURI: "/"}},
		{"http://example.com:443/", http1.Target{Scheme: "http", Host: "example.com:443", Hostname: "example.com", Port: 443, RequestURI: "/"}},
		{"https://[::1]:8443/x", http1.Target{Scheme: "https", Host: "[::1]:8443", Hostname: "::1", Port: 8443, RequestURI: "/x"}},
	}
	for _, tc := range tests {
		got, err := http1.ParseTarget(tc.raw)
		if err != nil {
			t.Errorf("ParseTarget(%q): %v", tc.raw, err)
			continue
		}
		if got != tc.want {
			t.Errorf("ParseTarget(%q)\n got %+v\nwant %+v", tc.raw, got, tc.want)
		}
		if want := tc.want.Scheme + "://" + tc.want.Host + tc.want.RequestURI; got.String() != want {
			t.Errorf("ParseTarget(%q).String() = %q, want %q", tc.raw, got.String(), want)
		}
	}
}

// String is the URL as requested: what a report should print and what a
// relative redirect resolves against.
func TestTargetString(t *testing.T) {
	target, err := http1.ParseTarget("HTTP://user:pw@Example.com:80/a b?q=ü#frag")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := target.String(), "http://example.com/a%20b?q=%C3%BC"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestParseTargetErrors(t *testing.T) {
	tests := []struct{ raw, msg string }{
		{"ftp://example.com/", `unsupported scheme "ftp"`},
		{"wss://example.com/", `unsupported scheme "wss"`},
		{"example.com/path", "not an absolute URL"},
		{"//example.com/path", "not an absolute URL"},
		{"http:///path", "has no host"},
		{"http:opaque", "has no host"},
		{"http://example.com:99999/", `bad port "99999"`},
		{"http://example.com:0/", `bad port "0"`},
		{"http://example.com:http/", "invalid port"},
		{"http://exa mple.com/", "invalid character"},
		{"http://[::1/", "missing ']'"},
		{"http://example.com/%zz", "invalid URL escape"},
	}
	for _, tc := range tests {
		_, err := http1.ParseTarget(tc.raw)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("ParseTarget(%q): error %v, want one saying %q", tc.raw, err, tc.msg)
		}
	}
}

func TestAppendRequest(t *testing.T) {
	target, err := http1.ParseTarget("http://example.com:8080/a%20b?q=1#frag")
	if err != nil {
		t.Fatal(err)
	}
	h := http1.Header{{"User-Agent", "loopkit/0 (+https://example.org/bot)"}, {"Accept-Encoding", "gzip"}}
	got, err := http1.AppendRequest([]byte("previous|"), "GET", target, h)
	want := "previous|GET /a%20b?q=1 HTTP/1.1\r\nHost: example.com:8080\r\n" +
		"User-Agent: loopkit/0 (+https://example.org/bot)\r\nAccept-Encoding: gzip\r\n\r\n"
	if err != nil || string(got) != want {
		t.Errorf("got %q, %v\nwant %q", got, err, want)
	}

	// HTAB and obs-text (bytes 0x80-0xFF) are allowed in a value (RFC 9110 §5.5).
	got, err = http1.AppendRequest(nil, "GET", target, http1.Header{{"X", "a\tb \xe9"}})
	if want := "X: a\tb \xe9\r\n\r\n"; err != nil || !strings.HasSuffix(string(got), want) {
		t.Errorf("got %q, %v; want it to end %q", got, err, want)
	}

	got, err = http1.AppendRequest(nil, "HEAD", http1.Target{Host: "h", RequestURI: "/"}, nil)
	if want := "HEAD / HTTP/1.1\r\nHost: h\r\n\r\n"; err != nil || string(got) != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
}

// Whatever would let a value inject a header or a second request is
// refused, and the buffer is left as it was.
func TestAppendRequestRefusesInjection(t *testing.T) {
	ok := http1.Target{Host: "example.com", RequestURI: "/"}
	tests := []struct {
		name   string
		method string
		target http1.Target
		h      http1.Header
		msg    string
	}{
		{"CRLF in a value", "GET", ok, http1.Header{{"X", "a\r\nEvil: 1"}}, "contains a control byte"},
		{"LF in a value", "GET", ok, http1.Header{{"X", "a\nb"}}, "contains a control byte"},
		{"NUL in a value", "GET", ok, http1.Header{{"X", "a\x00b"}}, "contains a control byte"},
		{"0x01 in a value", "GET", ok, http1.Header{{"X", "a\x01b"}}, "contains a control byte"},
		{"ESC in a value", "GET", ok, http1.Header{{"X", "\x1b[31mred"}}, "contains a control byte"},
		{"DEL in a value", "GET", ok, http1.Header{{"X", "a\x7f"}}, "contains a control byte"},
		{"colon in a name", "GET", ok, http1.Header{{"X: y", "z"}}, "invalid header name"},
		{"a second Host", "GET", ok, http1.Header{{"host", "other"}}, "set Target.Host"},
		{"space in the method", "GE T", ok, nil, "invalid method"},
		{"space in the target", "GET", http1.Target{Host: "h", RequestURI: "/a b"}, nil, "invalid request target"},
		{"empty target", "GET", http1.Target{Host: "h"}, nil, "invalid request target"},
		{"CRLF in Host", "GET", http1.Target{Host: "h\r\nX: y", RequestURI: "/"}, nil, "invalid Host"},
		{"empty Host", "GET", http1.Target{RequestURI: "/"}, nil, "invalid Host"},
	}
	for _, tc := range tests {
		dst := []byte("kept")
		got, err := http1.AppendRequest(dst, tc.method, tc.target, tc.h)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.msg)
		}
		if string(got) != "kept" {
			t.Errorf("%s: buffer became %q", tc.name, got)
		}
	}
}
