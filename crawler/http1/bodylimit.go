package http1

// What a caller may decide about one response's body, beyond the limits
// the parser was made with: a different limit, cutting at it instead of
// failing (robots.txt: RFC 9309 §2.5 asks a crawler to parse the first
// 500 KiB of a longer file, not to give up on it), and not keeping the
// body at all (a crawler that wants HTML, told by the head that this is a
// PDF).

// LimitBody sets, for the current response only, the largest body it may
// have, and what happens past it: with truncate, the response ends there,
// marked Truncated and Close (its rest is never read); without, the parse
// fails with ErrBodyTooLarge as usual. Reset restores the parser's limits.
func (p *Parser) LimitBody(maxBytes int64, truncate bool) {
	if maxBytes > 0 {
		p.lim.MaxBodyBytes = maxBytes
	}
	p.truncate = truncate
}

// WantBody makes the parser ask want, once the head of the current
// response is in, whether its body is wanted. If not, the body is read
// without being kept (see DiscardBody), its size and coding do not
// matter, and BodySkipped reports true. Reset forgets want.
func (p *Parser) WantBody(want func(head *Response) bool) { p.wantBody = want }

// BodySkipped reports whether WantBody's function said no.
func (p *Parser) BodySkipped() bool { return p.skipped }

// HeadDone reports whether the head of the final response has been
// parsed; Head returns it then (its Body is not there yet).
func (p *Parser) HeadDone() bool { return p.resp != nil && p.state != stateFailed }

// Head returns the final response's head once HeadDone, nil before. It is
// the same Response that Response returns when the body is done.
func (p *Parser) Head() *Response {
	if !p.HeadDone() {
		return nil
	}
	return p.resp
}

// DiscardBody makes the parser read the rest of the current body without
// keeping it: framing and limits still apply, so the connection can carry
// the next response, but Body stays empty.
func (p *Parser) DiscardBody() {
	p.discard = true
	p.body = nil
}

// ReadsUntilClose reports whether the current body ends only when the
// connection does: no Content-Length, not chunked. Over TLS, such a body
// is complete only if the server said so with a close_notify alert before
// closing (RFC 9112 §9.8); the client needs to know which it is reading.
func (p *Parser) ReadsUntilClose() bool { return p.state == stateBodyClose }

// BodyRemaining is how many body bytes the parser still expects, when the
// framing says (a Content-Length body), and -1 when it cannot know
// (chunked, or delimited by the close).
func (p *Parser) BodyRemaining() int64 {
	if p.state == stateBodyLength {
		return p.remaining
	}
	if p.state == stateDone {
		return 0
	}
	return -1
}

// take accepts body bytes: counted always, kept unless discarding.
func (p *Parser) take(b []byte) {
	p.bodyRead += int64(len(b))
	if !p.discard {
		p.body = append(p.body, b...)
	}
}

// frame counts n bytes of chunked framing — size lines with their
// extensions, line ends, trailers — against the body limit, which bounds
// what is read, not only what is kept. Past the limit it fails, or, for a
// truncating parser, ends the response there.
func (p *Parser) frame(n int) error {
	p.bodyRead += int64(n)
	if p.bodyRead <= p.lim.MaxBodyBytes || p.discard {
		return nil
	}
	if p.truncate {
		p.resp.Truncated, p.resp.Close = true, true
		return p.finish()
	}
	return errorf(ErrBodyTooLarge, "chunked body larger than %d bytes, its framing included", p.lim.MaxBodyBytes)
}

// overLimit reports whether n more body bytes would pass the limit of a
// truncating parser (a parser that fails at the limit checks elsewhere,
// as early as the framing lets it).
func (p *Parser) overLimit(n int) bool {
	if p.discard {
		return false // nothing is kept: a skipped body has no limit
	}
	return p.bodyRead+int64(n) > p.lim.MaxBodyBytes && (p.truncate || p.state == stateBodyClose)
}

// cut ends the response at the limit: b's bytes up to it are kept, the
// rest of the body is never read, and the connection cannot be reused.
func (p *Parser) cut(b []byte) (int, error) {
	k := int(p.lim.MaxBodyBytes - p.bodyRead)
	p.take(b[:k])
	p.resp.Truncated, p.resp.Close = true, true
	return k, p.finish()
}
