package crawler

import (
	"errors"
	"net"
	"os"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/netpoll"
)

// The kinds of error a record names (Record.ErrorKind), for counting: the
// report tallies them as fetch_error:timeout, and so on. A fetch error's
// kind is read from the error itself (errorKind); the rest are the
// crawler's own verdicts.
const (
	ErrorKindCancelled   = "cancelled"   // cut short by an interrupt
	ErrorKindTimeout     = "timeout"     // connect, read, write or total timeout (crawler/http1)
	ErrorKindDNS         = "dns"         // the name did not resolve
	ErrorKindRefused     = "refused"     // the connection was refused
	ErrorKindReset       = "reset"       // the connection was reset
	ErrorKindCertificate = "certificate" // an https server's certificate was not trusted
	ErrorKindTLS         = "tls"         // another failed TLS handshake
	ErrorKindTooLarge    = "too_large"   // a header or body over its limit
	ErrorKindTruncated   = "truncated"   // the body ended before its length
	ErrorKindProtocol    = "protocol"    // not HTTP/1.1 as RFC 9112 has it, or a coding we cannot undo
	ErrorKindUnsupported = "unsupported" // a URL the client cannot fetch
	ErrorKindNetwork     = "network"     // another system call failed
	ErrorKindOther       = "other"       // none of the above

	ErrorKindRobots        = "robots"         // robots.txt could not be read: nothing on the host is fetched
	ErrorKindRetryAfter    = "retry_after"    // the host asked for a wait longer than Config.MaxRetryAfter
	ErrorKindRedirectLimit = "redirect_limit" // Config.MaxRedirect redirects followed, and another came
	ErrorKindBadRedirect   = "bad_redirect"   // a redirect without a usable Location
	ErrorKindParse         = "parse"          // the page's links could not be read
	ErrorKindCrawlerBug    = "crawler_bug"    // a panic in the crawler, caught: one URL lost, not the worker
)

// errorKind names the kind of a fetch error.
func errorKind(err error) string {
	var dnsErr *net.DNSError
	var sysErr *os.SyscallError
	var tlsErr *http1.TLSError
	switch {
	case errors.Is(err, future.ErrCancelled):
		return ErrorKindCancelled
	case errors.Is(err, http1.ErrTimeout):
		return ErrorKindTimeout
	case errors.As(err, &dnsErr):
		return ErrorKindDNS
	case netpoll.IsRefused(err):
		return ErrorKindRefused
	case netpoll.IsReset(err):
		return ErrorKindReset
	case errors.As(err, &tlsErr) && tlsErr.Certificate():
		return ErrorKindCertificate
	case errors.As(err, &tlsErr):
		return ErrorKindTLS
	case errors.Is(err, http1.ErrBodyTooLarge), errors.Is(err, http1.ErrHeaderTooLarge):
		return ErrorKindTooLarge
	case errors.Is(err, http1.ErrTruncated):
		return ErrorKindTruncated
	case errors.Is(err, http1.ErrProtocol), errors.Is(err, http1.ErrUnsupportedCoding):
		return ErrorKindProtocol
	case errors.Is(err, http1.ErrUnsupportedURL):
		return ErrorKindUnsupported
	case errors.As(err, &sysErr):
		return ErrorKindNetwork
	}
	return ErrorKindOther
}
