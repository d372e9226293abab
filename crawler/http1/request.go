package http1

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// Target is a URL taken apart the way a request needs it: what the dialer
// connects to, and what the request head says.
type Target struct {
	Scheme string // "http" or "https"
	// Host is the Host header value: the host name, with ":port" only
	// when the port is not the scheme's (80, 443), an IPv6 literal in
	// brackets (without a zone: the zone means something only on this
	// machine).
	Host string
	// Hostname is what to resolve or dial: lower case, no brackets, no
	// port, a Unicode name converted to its ASCII (Punycode) form.
	Hostname string
	Port     int
	// RequestURI is the request-target in origin form (RFC 9112 §3.2.1):
	// the escaped path and query, "/" for an empty path. Never the
	// fragment, which stays in the browser, nor the userinfo.
	RequestURI string
}

// String returns the URL the request goes to, as the server will see it:
// without userinfo or fragment, escaped, default port omitted.
func (t Target) String() string {
	return t.Scheme + "://" + t.Host + t.RequestURI
}

// ParseTarget parses an absolute http or https URL. The userinfo ("user:pass@") is
// dropped: a request line has no place for it, and the crawler does not
// turn credentials found in scraped links into Authorization headers for
// whatever server those links name. The fragment is dropped too: it is
// for the browser, never sent.
func ParseTarget(raw string) (Target, error) {
	if t, ok := sliceTarget(raw); ok {
		return t, nil
	}
	return parseTarget(raw)
}

// parseTarget is ParseTarget the general way, for every URL sliceTarget
// does not take: url.Parse, then each part rebuilt for the wire.
func parseTarget(raw string) (Target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Target{}, fmt.Errorf("http1: %w", err)
	}
	port := 80
	switch u.Scheme {
	case "http":
	case "https":
		port = 443
	case "":
		return Target{}, fmt.Errorf("http1: %q is not an absolute URL", raw)
	default:
		return Target{}, fmt.Errorf("%w: %q: unsupported scheme %q", ErrUnsupportedURL, raw, u.Scheme)
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return Target{}, fmt.Errorf("http1: %q has no host", raw)
	}
	defaultPort := port
	if p := u.Port(); p != "" {
		// url.Parse has checked it is all digits, not its range.
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return Target{}, fmt.Errorf("http1: %q: bad port %q", raw, p)
		}
	}
	hostname, host, err := hostnames(u.Hostname())
	if err != nil {
		return Target{}, fmt.Errorf("http1: %q: bad host: %w", raw, err)
	}
	if port != defaultPort {
		host += ":" + strconv.Itoa(port)
	}
	target := u.EscapedPath()
	if target == "" {
		target = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		target += "?" + escapeQuery(u.RawQuery)
	}
	return Target{Scheme: u.Scheme, Host: host, Hostname: hostname, Port: port, RequestURI: target}, nil
}

// hostnames returns the name to dial and the name for the Host header,
// which differ in two cases. An IPv6 literal is dialed with its zone
// ("fe80::1%eth0") but sent in brackets and without it: the zone means
// something only on this machine. A Unicode name is converted to Punycode
// (IDNA, RFC 5891) for both, since neither DNS nor a Host header carries
// UTF-8.
func hostnames(name string) (dial, header string, err error) {
	if strings.Contains(name, ":") { // only an IPv6 literal has colons
		addr, err := netip.ParseAddr(name)
		if err != nil {
			return "", "", err
		}
		return addr.String(), "[" + addr.WithZone("").String() + "]", nil
	}
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			if name, err = idna.Lookup.ToASCII(name); err != nil {
				return "", "", err
			}
			break
		}
	}
	name = strings.ToLower(name)
	return name, name, nil
}

// escapeQuery percent-encodes what url.Parse leaves raw in a query but a
// request line cannot carry: spaces and controls (they would end the
// request-target), non-ASCII bytes, the characters RFC 3986 excludes, and a
// "%" that does not start an escape. Existing escapes are kept as they are:
// "a%2Bb" and "a+b" may mean different things to the server.
func escapeQuery(q string) string {
	i := 0
	for i < len(q) && !queryNeedsEscape(q, i) {
		i++
	}
	if i == len(q) {
		return q // the common case: nothing to escape, nothing allocated
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(q)+16)
	b = append(b, q[:i]...)
	for ; i < len(q); i++ {
		if c := q[i]; queryNeedsEscape(q, i) {
			b = append(b, '%', hex[c>>4], hex[c&15])
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

func queryNeedsEscape(q string, i int) bool {
	switch c := q[i]; {
	case c <= ' ' || c >= 0x7f:
		return true
	case c == '%':
		return i+2 >= len(q) || unhex(q[i+1]) < 0 || unhex(q[i+2]) < 0
	default:
		return strings.IndexByte(`"<>\^`+"`{|}", c) >= 0
	}
}

// AppendRequest appends a request head for a body-less request (GET,
// HEAD) to dst: the request line, Host from t, the fields of h in order,
// and the empty line.
//
// It returns an error, and dst unchanged, when a value is not one RFC 9110
// §5.5 allows: a CR or LF would let whoever supplied it (a flag, a config
// file, a page) inject headers or a second request, and the other control
// bytes (NUL, ESC, DEL, ...) are read differently by different servers —
// some cut the value there, some the line, some refuse the request. HTAB
// is allowed, and so are bytes 0x80-0xFF (obs-text, which recipients treat
// as opaque). A check helper that callers may forget would not protect
// anyone; scanning a few hundred bytes costs nothing next to a network
// round trip. A Host field in h is refused too: set Target.Host instead,
// so there is one.
func AppendRequest(dst []byte, method string, t Target, h Header) ([]byte, error) {
	if err := checkRequest(method, t, h); err != nil {
		return dst, err
	}
	return appendHead(dst, method, t, h, nil), nil
}

// checkRequest is AppendRequest's check, alone: the client checks its own
// fields once, when it is made, and each request's own parts when it
// comes.
func checkRequest(method string, t Target, h Header) error {
	if !isToken(method) {
		return fmt.Errorf("http1: invalid method %q", method)
	}
	if !isVisibleASCII(t.RequestURI) {
		return fmt.Errorf("http1: invalid request target %q", t.RequestURI)
	}
	if !isVisibleASCII(t.Host) {
		return fmt.Errorf("http1: invalid Host %q", t.Host)
	}
	return checkFields(h)
}

func checkFields(h Header) error {
	for _, f := range h {
		switch {
		case !isToken(f.Name):
			return fmt.Errorf("http1: invalid header name %q", f.Name)
		case strings.EqualFold(f.Name, "Host"):
			return errors.New("http1: set Target.Host instead of a Host field")
		case hasControl(f.Value):
			return fmt.Errorf("http1: value of header %s contains a control byte (CR, LF, NUL, DEL, ...)", f.Name)
		}
	}
	return nil
}

// headSize is how many bytes appendHead writes.
func headSize(method string, t Target, h, more Header) int {
	n := len(method) + len(" ") + len(t.RequestURI) + len(" HTTP/1.1\r\nHost: ") + len(t.Host) + len("\r\n\r\n")
	for _, fields := range [2]Header{h, more} {
		for _, f := range fields {
			n += len(f.Name) + len(": ") + len(f.Value) + len("\r\n")
		}
	}
	return n
}

// appendHead writes a request head that has been checked: the request
// line, Host, the fields of h and then of more, and the empty line.
func appendHead(dst []byte, method string, t Target, h, more Header) []byte {
	dst = append(dst, method...)
	dst = append(dst, ' ')
	dst = append(dst, t.RequestURI...)
	dst = append(dst, " HTTP/1.1\r\nHost: "...)
	dst = append(dst, t.Host...)
	dst = append(dst, "\r\n"...)
	for _, fields := range [2]Header{h, more} {
		for _, f := range fields {
			dst = append(dst, f.Name...)
			dst = append(dst, ": "...)
			dst = append(dst, f.Value...)
			dst = append(dst, "\r\n"...)
		}
	}
	return append(dst, "\r\n"...)
}

// isVisibleASCII reports a non-empty string of printable ASCII without
// spaces, what a request-target and a Host value are made of.
func isVisibleASCII(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}
