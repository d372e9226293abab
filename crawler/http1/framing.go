package http1

import (
	"errors"
	"strings"
)

// maxPrealloc caps how much memory a declared Content-Length or chunk size
// reserves before the bytes arrive. Below it the body is allocated once at
// its exact size; above it, it grows as data comes, so a server that lies
// about a 10 MiB body costs us what it actually sends.
const maxPrealloc = 1 << 20

// startBody decides, from a final response's head, whether a body follows
// and how its end will be recognised: RFC 9112 §6.3, in its order.
func (p *Parser) startBody() error {
	r := p.resp
	r.Close = wantsClose(r.Proto, r.Header)
	te := r.Header.Has("Transfer-Encoding")
	if te {
		// §6.3 rule 3: Transfer-Encoding overrides Content-Length. A
		// message with both is how request smuggling and response
		// splitting work: two parsers of the same bytes disagree on
		// where the message ends. Rejecting would lose pages that old
		// servers and proxies send this way; the RFC's other choice,
		// taken here, is to trust Transfer-Encoding and never reuse
		// the connection (§6.1 orders servers to do the same), because
		// whatever follows this message on it cannot be trusted.
		// §6.1 also says an HTTP/1.0 message with Transfer-Encoding
		// has faulty framing: read it, then close.
		if r.Header.Has("Content-Length") || r.Proto == "HTTP/1.0" {
			r.Close = true
		}
	} else {
		cl, err := contentLength(r.Header)
		if err != nil {
			return err
		}
		r.ContentLength = cl
	}

	// §6.3 rule 1: these responses end with their head, whatever the
	// framing fields say (a HEAD response's Content-Length is that of the
	// GET it stands for). 1xx responses, also bodiless, never get here:
	// readHead skips them.
	if p.method == "HEAD" || r.StatusCode == 204 || r.StatusCode == 304 {
		return p.finish()
	}
	// A body the caller does not want is not kept, and so neither its
	// size nor its coding matters: a 50 MiB PDF is skipped, not refused.
	if p.wantBody != nil && !p.wantBody(r) {
		p.skipped, p.discard = true, true
	}
	if !p.discard {
		p.body = p.spare // a recycled Response's old body array (Into), or nil
	}
	p.spare = nil

	// The codings to undo at the end are checked now, before any body
	// arrives: there is no point reading 10 MiB of a coding we cannot
	// decode.
	contentGunzips, err := contentCodings(r.Header)
	if err != nil && !p.discard {
		return err
	}
	r.Decoded = contentGunzips > 0

	switch {
	case te:
		chunked, transferGunzips, err := transferCodings(r.Header)
		if err != nil && !(p.discard && errors.Is(err, ErrUnsupportedCoding)) {
			return err
		}
		p.gunzips = transferGunzips + contentGunzips
		if chunked {
			p.state = stateChunkSize
			return nil
		}
		// §6.3 rule 4: a response whose last coding is not chunked runs
		// until the connection closes.
		r.Close = true
		p.state = stateBodyClose
	case r.ContentLength >= 0:
		p.gunzips = contentGunzips
		if r.ContentLength > p.lim.MaxBodyBytes && !p.truncate && !p.discard {
			return errorf(ErrBodyTooLarge, "Content-Length %d is over the %d byte limit", r.ContentLength, p.lim.MaxBodyBytes)
		}
		if r.ContentLength == 0 {
			return p.finish()
		}
		p.remaining = r.ContentLength
		if want := min(r.ContentLength, p.lim.MaxBodyBytes, maxPrealloc); !p.discard && int64(cap(p.body)) < want {
			p.body = make([]byte, 0, want)
		}
		p.state = stateBodyLength
	default:
		// §6.3 rule 8: no length at all, so the body is everything
		// until the server closes; nothing can follow it.
		p.gunzips = contentGunzips
		r.Close = true
		p.state = stateBodyClose
	}
	return nil
}

// wantsClose reads the connection's fate from the Connection field
// (RFC 9112 §9.3): HTTP/1.1 stays open unless the server says "close";
// HTTP/1.0 closes unless it says "keep-alive".
func wantsClose(proto string, h Header) bool {
	keepAlive := false
	for opt := range h.elements("Connection") {
		if strings.EqualFold(opt, "close") {
			return true
		}
		keepAlive = keepAlive || strings.EqualFold(opt, "keep-alive")
	}
	return proto == "HTTP/1.0" && !keepAlive
}

// contentLength returns the declared body length, or -1 if none. Several
// values, in one field ("5, 5") or repeated fields, are what a proxy that
// merged duplicates produces; RFC 9110 §8.6 lets a recipient accept them
// only when they all agree. Anything else is a protocol error: guessing
// a length is how one response gets read as part of another.
func contentLength(h Header) (int64, error) {
	n := int64(-1)
	for _, f := range h {
		if !strings.EqualFold(f.Name, "Content-Length") {
			continue
		}
		rest := f.Value
		for {
			var elem string
			var more bool
			elem, rest, more = strings.Cut(rest, ",")
			v, ok := parseDecimal(trimOWS(elem))
			if !ok {
				return 0, errorf(ErrProtocol, "invalid Content-Length %s", quote(f.Value))
			}
			if n >= 0 && v != n {
				return 0, errorf(ErrProtocol, "conflicting Content-Length %d and %d", n, v)
			}
			n = v
			if !more {
				break
			}
		}
	}
	return n, nil
}

// parseDecimal parses 1*DIGIT into a non-negative int64. Unlike strconv it
// accepts no sign, no underscores and no spaces, which a length must not
// have.
func parseDecimal(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 || v > (1<<63-1-int64(d))/10 {
			return 0, false
		}
		v = v*10 + int64(d)
	}
	return v, true
}

func isGzip(coding string) bool {
	// "x-gzip" is the pre-HTTP/1.1 name; RFC 9110 §8.4.1.3 says to treat it
	// as gzip.
	return strings.EqualFold(coding, "gzip") || strings.EqualFold(coding, "x-gzip")
}

// contentCodings returns how many gzip layers Content-Encoding says were
// applied, or an error naming a coding we cannot undo.
func contentCodings(h Header) (gunzips int, err error) {
	for coding := range h.elements("Content-Encoding") {
		switch {
		case isGzip(coding):
			gunzips++
		case strings.EqualFold(coding, "identity"):
		default:
			return 0, errorf(ErrUnsupportedCoding, "unsupported Content-Encoding %s", quote(coding))
		}
	}
	return gunzips, nil
}

// transferCodings reads Transfer-Encoding (RFC 9112 §6.1): chunked may only
// come last, and whether it does decides how the body ends; gzip layers
// under it are undone at the end like a Content-Encoding.
func transferCodings(h Header) (chunked bool, gunzips int, err error) {
	if err := checkTransferEncodingList(h); err != nil {
		return false, 0, err
	}
	for coding := range h.elements("Transfer-Encoding") {
		switch {
		case chunked:
			return false, 0, errorf(ErrProtocol, "Transfer-Encoding %s after chunked", quote(coding))
		case strings.EqualFold(coding, "chunked"):
			chunked = true
		case isGzip(coding):
			gunzips++
		default:
			return false, 0, errorf(ErrUnsupportedCoding, "unsupported Transfer-Encoding %s", quote(coding))
		}
	}
	return chunked, gunzips, nil
}

// checkTransferEncodingList refuses a Transfer-Encoding with nothing in
// it, or with an empty element (", chunked"). RFC 9110 §5.6.1 asks
// recipients to skip empty list elements, and elements does, for every
// other field. This one decides where the message ends, and there two
// parsers of the same bytes must not disagree: Go's net/http refuses
// both, and an empty Transfer-Encoding still overrides Content-Length for
// a parser that goes by presence. So the client refuses to guess.
func checkTransferEncodingList(h Header) error {
	for _, f := range h {
		if !strings.EqualFold(f.Name, "Transfer-Encoding") {
			continue
		}
		if trimOWS(f.Value) == "" {
			return errorf(ErrProtocol, "empty Transfer-Encoding")
		}
		for rest, more := f.Value, true; more; {
			var elem string
			elem, rest, more = strings.Cut(rest, ",")
			if trimOWS(elem) == "" {
				return errorf(ErrProtocol, "empty element in Transfer-Encoding %s", quote(f.Value))
			}
		}
	}
	return nil
}
