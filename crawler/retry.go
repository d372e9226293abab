package crawler

import (
	"errors"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"loopkit/crawler/http1"
)

// retryableStatus: the server is busy, overloaded or briefly broken, and
// asking again later may work (the list of an article on polite crawling
// with asyncio and httpx). Every other 4xx is final:
// 404 stays 404 however often it is asked.
func retryableStatus(code int) bool {
	switch code {
	case 408, 429, 500, 502, 503, 504:
		return true
	}
	return false
}

// retryableError: a failure of the network or of a connection — refused,
// reset, unreachable, timed out, cut short (a TLS handshake too), or a DNS
// server that did not answer — rather than of the content. Anything else
// (a protocol violation, a page over the size limit, an unsupported URL, a
// host that does not exist, a certificate not trusted, a TLS alert, a
// cancellation) would fail the same way again.
func retryableError(err error) bool {
	var sysErr *os.SyscallError
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		return dnsErr.IsTimeout || dnsErr.IsTemporary
	case errors.Is(err, http1.ErrTimeout), errors.Is(err, http1.ErrTruncated):
		return true
	case errors.As(err, &sysErr):
		return true
	}
	return false
}

// backoff is base × 2^(attempt-1) × uniform(0.5, 1.0): exponential, so a
// struggling server gets room, and jittered, so clients that failed
// together do not all come back together.
func backoff(base time.Duration, attempt int) time.Duration {
	d := base << (attempt - 1)
	return time.Duration(float64(d) * (0.5 + 0.5*rand.Float64()))
}

// parseRetryAfter reads Retry-After in either form (RFC 9110 §10.2.3):
// delay-seconds, or an HTTP-date. Invalid values are ignored (ok false);
// a date in the past means now. It does not cap what it reads: the
// crawler compares it with --max_retry_after, and gives up on the host
// rather than shorten a wait the server asked for.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	var d time.Duration
	if secs, err := strconv.ParseUint(v, 10, 32); err == nil {
		d = time.Duration(secs) * time.Second
	} else if t, ok := parseHTTPDate(v); ok {
		d = t.Sub(now)
	} else {
		return 0, false
	}
	return max(d, 0), true
}

// parseHTTPDate accepts the three date formats RFC 9110 §5.6.7 says a
// recipient must: IMF-fixdate, and the obsolete RFC 850 and asctime forms.
func parseHTTPDate(v string) (time.Time, bool) {
	for _, layout := range []string{
		"Mon, 02 Jan 2006 15:04:05 GMT",
		"Monday, 02-Jan-06 15:04:05 GMT",
		"Mon Jan _2 15:04:05 2006",
	} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
