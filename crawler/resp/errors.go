package resp

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// The kinds of failure the parser reports. Every error it returns is a
// *ParseError that errors.Is exactly one of these. After any of them the
// connection is out of step — no one knows where the next reply starts —
// so the client closes it.
var (
	// ErrProtocol: the bytes are not RESP2: an unknown type byte, a line
	// not ended by CRLF, a length or an integer that is not a number.
	ErrProtocol = errors.New("resp: protocol error")
	// ErrTooLarge: something the server sent is over one of the Limits: a
	// line, a bulk string, an array's length, the nesting of arrays, or
	// the whole reply.
	ErrTooLarge = errors.New("resp: reply too large")
	// ErrTruncated: the connection ended in the middle of a reply.
	ErrTruncated = errors.New("resp: truncated reply")
)

// ParseError says what exactly was wrong with a reply.
type ParseError struct {
	Kind error  // ErrProtocol, ErrTooLarge or ErrTruncated
	Msg  string // what was wrong, e.g. `unknown type byte 'x'`
}

func (e *ParseError) Error() string { return "resp: " + e.Msg }

// Unwrap makes errors.Is(err, ErrTooLarge) and friends work.
func (e *ParseError) Unwrap() error { return e.Kind }

func errorf(kind error, format string, args ...any) error {
	return &ParseError{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Error is an error reply from the server: the command reached it and was
// refused ("-ERR unknown command", "-WRONGTYPE ...", "-NOSCRIPT ..."). The
// connection is fine; only this command failed.
type Error struct {
	Msg string // the reply's text, without the leading '-'
}

func (e *Error) Error() string { return "redis: " + e.Msg }

// Code is the first word of the message, which by Redis's convention names
// the kind of error: "ERR", "WRONGTYPE", "NOSCRIPT", "NOAUTH", "LOADING".
func (e *Error) Code() string {
	code, _, _ := strings.Cut(e.Msg, " ")
	return code
}

// The errors of the client, as opposed to the server's. What matters to a
// caller is whether the command may have run, so each failure of a
// command matches exactly one of the first two with errors.Is.
var (
	// ErrNotConnected: the command was never sent, because there was no
	// connection (Redis down, a connection attempt failing, or the client
	// waiting before its next attempt). Sending it again is safe.
	ErrNotConnected = errors.New("resp: not connected; the command was not sent")
	// ErrConnectionLost: the command was sent, and the connection was lost
	// (closed, reset, timed out, or closed by the client after a bad reply)
	// before its reply came. It may or may not have run.
	ErrConnectionLost = errors.New("resp: connection lost before the reply; the command may have run")
	// ErrClientClosed fails what is pending when Close is called, and
	// everything sent after it.
	ErrClientClosed = errors.New("resp: client closed")
)

// ErrTimeout matches every TimeoutError with errors.Is.
var ErrTimeout = errors.New("resp: timeout")

// TimeoutError says which wait ran out of time.
type TimeoutError struct {
	Phase string // "connect" (TCP and the handshake) or "reply"
	After time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("resp: %s timeout after %v", e.Phase, e.After)
}

// Is makes errors.Is(err, ErrTimeout) true.
func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }

// Timeout reports true, as net.Error's Timeout does.
func (e *TimeoutError) Timeout() bool { return true }
