package http1

import (
	"errors"
	"fmt"
)

// The kinds of failure the parser reports. Every error it returns is a
// *ParseError that errors.Is exactly one of these, so the client can decide
// what to do without reading messages: a protocol error or a truncation
// means the connection is unusable; a size limit means the page is too big
// and retrying will not help.
var (
	// ErrProtocol: the server sent something that is not valid HTTP/1.x
	// framing (a bad status line, a malformed header, conflicting lengths,
	// a broken chunk or gzip stream).
	ErrProtocol = errors.New("http1: protocol error")
	// ErrHeaderTooLarge: a field section (the head, or the trailers) grew
	// past Limits.MaxHeaderBytes, or held more than Limits.MaxHeaderFields.
	ErrHeaderTooLarge = errors.New("http1: header too large")
	// ErrBodyTooLarge: the body, on the wire or after decompression, grew
	// past Limits.MaxBodyBytes. The parser stops instead of truncating: a
	// silently cut page would be indexed as if it were whole.
	ErrBodyTooLarge = errors.New("http1: body too large")
	// ErrTruncated: the connection ended before the response did, or a
	// gzip body ended before its compressed stream did.
	ErrTruncated = errors.New("http1: truncated response")
	// ErrUnsupportedCoding: a Content-Encoding or Transfer-Encoding other
	// than gzip, x-gzip, identity or chunked. It is not a protocol
	// violation, but the body cannot be read.
	ErrUnsupportedCoding = errors.New("http1: unsupported coding")
)

// ErrUnsupportedURL: a URL the client cannot fetch at all: a scheme other
// than http and https. Asking again will not help.
var ErrUnsupportedURL = errors.New("http1: unsupported URL")

// ErrRetried marks the error of a request that failed after the client
// had already sent it twice: once on a pooled connection that turned out
// to be dead, once more on a fresh one. Whoever counts attempts counts two.
var ErrRetried = errors.New("after a retry on a fresh connection")

// ParseError says what exactly was wrong with a response.
type ParseError struct {
	Kind error  // one of the Err* sentinels above
	Msg  string // what was wrong, e.g. `bad status line "FOO"`
}

func (e *ParseError) Error() string { return "http1: " + e.Msg }

// Unwrap makes errors.Is(err, ErrProtocol) and friends work.
func (e *ParseError) Unwrap() error { return e.Kind }

func errorf(kind error, format string, args ...any) error {
	return &ParseError{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// quote clips s before quoting it: an error message names the offending
// bytes, but must not carry 64 KiB of them.
func quote(s string) string {
	const maxLen = 64
	if len(s) > maxLen {
		return fmt.Sprintf("%q...", s[:maxLen])
	}
	return fmt.Sprintf("%q", s)
}
