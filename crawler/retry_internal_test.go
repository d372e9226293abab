package crawler

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"120", 120 * time.Second, true}, // not clamped: the crawler compares it with --max_retry_after
		{"4294967295", 4294967295 * time.Second, true},
		{"3", 3 * time.Second, true},
		{"0", 0, true},
		{"Sun, 29 Nov 2026 12:00:05 GMT", 5 * time.Second, true},
		{"Sunday, 29-Nov-26 12:00:10 GMT", 10 * time.Second, true},
		{"Sun Nov 29 12:00:02 2026", 2 * time.Second, true},
		{"Sun, 29 Nov 2026 11:00:00 GMT", 0, true}, // in the past: go now
		{"-5", 0, false},
		{"soon", 0, false},
		{"1.5", 0, false},
		{"", 0, false},
	} {
		got, ok := parseRetryAfter(c.in, now)
		if got != c.want || ok != c.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestBackoffIsExponentialWithJitter(t *testing.T) {
	base := 100 * time.Millisecond
	for attempt := 1; attempt <= 4; attempt++ {
		full := base << (attempt - 1)
		for range 200 {
			d := backoff(base, attempt)
			if d < full/2 || d > full {
				t.Fatalf("attempt %d: %v outside [%v, %v]", attempt, d, full/2, full)
			}
		}
	}
}

func TestWhatIsRetried(t *testing.T) {
	for code, want := range map[int]bool{408: true, 429: true, 500: true, 502: true, 503: true, 504: true,
		400: false, 401: false, 403: false, 404: false, 410: false, 501: false, 200: false} {
		if retryableStatus(code) != want {
			t.Errorf("status %d retryable = %v", code, !want)
		}
	}
	for err, want := range map[error]bool{
		os.NewSyscallError("connect", syscall.ECONNREFUSED):         true,
		os.NewSyscallError("read", syscall.ECONNRESET):              true,
		&http1.TimeoutError{Phase: "read"}:                          true,
		fmt.Errorf("x: %w", http1.ErrTruncated):                     true,
		&net.DNSError{Err: "timeout", IsTimeout: true}:              true,
		&net.DNSError{Err: "server misbehaving", IsTemporary: true}: true,
		&net.DNSError{Err: "no such host", IsNotFound: true}:        false,
		fmt.Errorf("x: %w", http1.ErrProtocol):                      false,
		fmt.Errorf("x: %w", http1.ErrBodyTooLarge):                  false,
		future.ErrCancelled:                                         false,
		fmt.Errorf("%w: ftp", http1.ErrUnsupportedURL):              false,
	} {
		if retryableError(err) != want {
			t.Errorf("%v: retryable = %v", err, !want)
		}
	}
}

// Failed TLS handshakes: a certificate not trusted is final, and so is a
// TLS alert; a handshake cut short by the network is retried like any
// connection. Each has its kind in the record.
func TestTLSErrorsKindAndRetry(t *testing.T) {
	tlsErr := func(err error) error { return &http1.TLSError{Host: "example.com", Err: err} }
	for _, tc := range []struct {
		err       error
		kind      string
		retryable bool
	}{
		{tlsErr(&tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}), "certificate", false},
		{tlsErr(&net.OpError{Op: "remote error", Err: errors.New("tls: handshake failure")}), "tls", false},
		{tlsErr(fmt.Errorf("closed during the handshake: %w", http1.ErrTruncated)), "tls", true},
		{tlsErr(os.NewSyscallError("read", syscall.ECONNRESET)), "reset", true},
		{&http1.TimeoutError{Phase: "handshake"}, "timeout", true},
	} {
		if kind, retry := errorKind(tc.err), retryableError(tc.err); kind != tc.kind || retry != tc.retryable {
			t.Errorf("%v: kind %q, retryable %v; want %q, %v", tc.err, kind, retry, tc.kind, tc.retryable)
		}
	}
}

func TestProductToken(t *testing.T) {
	for ua, want := range map[string]string{
		DefaultUserAgent:            "loopkit",
		"MyBot/2.0 (+mailto:a@b.c)": "MyBot",
		"plainbot":                  "plainbot",
		"spaced bot/1":              "spaced",
	} {
		if got := productToken(ua); got != want {
			t.Errorf("productToken(%q) = %q, want %q", ua, got, want)
		}
	}
}

// Every kind a fetch error is tallied under (report's fetch_error:KIND),
// one error of each, in the wrappings the client gives them.
func TestErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		err  error
		kind string
	}{
		{future.ErrCancelled, ErrorKindCancelled},
		{errNotOurs, ErrorKindCancelled},
		{&http1.TimeoutError{Phase: "connect"}, ErrorKindTimeout},
		{&net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}, ErrorKindDNS},
		{os.NewSyscallError("connect", syscall.ECONNREFUSED), ErrorKindRefused},
		{os.NewSyscallError("read", syscall.ECONNRESET), ErrorKindReset},
		{os.NewSyscallError("write", syscall.EPIPE), ErrorKindReset},
		{fmt.Errorf("x: %w", http1.ErrBodyTooLarge), ErrorKindTooLarge},
		{fmt.Errorf("x: %w", http1.ErrHeaderTooLarge), ErrorKindTooLarge},
		{fmt.Errorf("x: %w", http1.ErrTruncated), ErrorKindTruncated},
		{fmt.Errorf("x: %w", http1.ErrProtocol), ErrorKindProtocol},
		{fmt.Errorf("x: %w", http1.ErrUnsupportedCoding), ErrorKindProtocol},
		{fmt.Errorf("%w: ftp", http1.ErrUnsupportedURL), ErrorKindUnsupported},
		{os.NewSyscallError("connect", syscall.ENETUNREACH), ErrorKindNetwork},
		{errLastTry, ErrorKindNetwork},
		{errors.New("something else"), ErrorKindOther},
	} {
		if got := errorKind(tc.err); got != tc.kind {
			t.Errorf("errorKind(%v) = %q, want %q", tc.err, got, tc.kind)
		}
	}
	// The kinds' names are the report's and the JSONL's, read by tools.
	for got, want := range map[string]string{
		ErrorKindCancelled: "cancelled", ErrorKindTimeout: "timeout", ErrorKindDNS: "dns",
		ErrorKindRefused: "refused", ErrorKindReset: "reset", ErrorKindCertificate: "certificate",
		ErrorKindTLS: "tls", ErrorKindTooLarge: "too_large", ErrorKindTruncated: "truncated",
		ErrorKindProtocol: "protocol", ErrorKindUnsupported: "unsupported", ErrorKindNetwork: "network",
		ErrorKindOther: "other", ErrorKindRobots: "robots", ErrorKindRetryAfter: "retry_after",
		ErrorKindRedirectLimit: "redirect_limit", ErrorKindBadRedirect: "bad_redirect",
		ErrorKindParse: "parse", ErrorKindCrawlerBug: "crawler_bug",
	} {
		if got != want {
			t.Errorf("kind %q, documented as %q", got, want)
		}
	}
}
