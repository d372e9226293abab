package http1

import "fmt"

// Default limits, used where a Limits field is zero or negative.
const (
	DefaultMaxHeaderBytes        = 64 << 10
	DefaultMaxHeaderFields       = 256
	DefaultMaxBodyBytes    int64 = 10 << 20
)

// Limits bound what one response may cost. A crawler talks to servers it
// does not trust; without limits one endless header line or one
// gigabyte "page" is enough to exhaust its memory.
type Limits struct {
	// MaxHeaderBytes bounds each field section: the status line plus the
	// headers, and separately the trailers of a chunked body. Line endings
	// count.
	MaxHeaderBytes int
	// MaxHeaderFields bounds the number of fields in each section. Within
	// MaxHeaderBytes a server could send twenty thousand one-letter
	// fields, each a Field to keep and a string to compare on every
	// lookup; real responses have a few dozen.
	MaxHeaderFields int
	// MaxBodyBytes bounds what is read after the head — the body, and for
	// a chunked body its framing too: chunk sizes, extensions, line ends
	// and trailers — and again the body after gzip decompression, so a
	// small compressed body cannot expand into a huge one (a "zip bomb").
	MaxBodyBytes int64
}

func (l Limits) withDefaults() Limits {
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if l.MaxHeaderFields <= 0 {
		l.MaxHeaderFields = DefaultMaxHeaderFields
	}
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = DefaultMaxBodyBytes
	}
	return l
}

// Response is a complete final response. It belongs to the caller: the
// parser never touches it again, not even after Reset.
type Response struct {
	Proto      string // "HTTP/1.1" or "HTTP/1.0" (a later HTTP/1.x minor version is kept as sent)
	StatusCode int    // 200..999 for a final response
	Reason     string // may be empty
	Header     Header
	// Trailer holds the fields sent after a chunked body, nil if none.
	// They stay apart from Header because RFC 9110 §6.5.1 forbids merging
	// a trailer into the header section unless that field's definition
	// allows it, and a trailer arrives too late to have governed framing.
	Trailer Header
	// Body is the content, decoded from gzip when Decoded says so; nil or
	// empty when the message had none.
	Body []byte
	// ContentLength is the length the server declared in Content-Length,
	// or -1 when it declared none or Transfer-Encoding overrode it. For a
	// HEAD or 304 response it is the length the full representation would
	// have; after gzip decoding it is the compressed length, not len(Body).
	ContentLength int64
	// Close says the connection must not carry another request: the
	// server asked for it (Connection: close, or HTTP/1.0 without
	// keep-alive), the body was delimited by the connection closing, or
	// the framing was suspect (Transfer-Encoding with Content-Length).
	Close bool
	// Decoded says Body was gunzipped following Content-Encoding. The
	// Content-Encoding field stays in Header as the server sent it; Body
	// is the representation itself.
	Decoded bool
	// Truncated says Body is only the start of the body: it reached the
	// limit of a parser told to cut there (LimitBody with truncate), and
	// the rest was never read.
	Truncated bool
}

// state is where the parser is within a response.
type state uint8

const (
	stateHead       state = iota // status line and header fields
	stateBodyLength              // a body of Content-Length bytes
	stateBodyClose               // a body that ends when the connection does
	stateChunkSize               // a chunk-size line
	stateChunkData               // the data of a chunk
	stateChunkEnd                // the CRLF after chunk data
	stateTrailer                 // trailer fields after the last chunk
	stateDone                    // a final response is complete
	stateFailed                  // an error was returned; it is sticky
)

// maxInterim bounds the 1xx responses skipped before the final one. Each is
// limited in size, but without a count a server could keep us reading
// "100 Continue" forever.
const maxInterim = 8

// Parser reads one HTTP/1.x response at a time from bytes fed to it in
// pieces of any size. Its zero value is not usable: call NewParser.
//
// The usual loop, in a read callback:
//
//	n, err := p.Feed(buf)  // err: the connection is unusable
//	if p.Done() { resp := p.Response(); leftover := buf[n:]; ... }
//
// and on EOF, p.CloseInput() either completes a body delimited by the close
// or says what was cut short.
type Parser struct {
	base    Limits // the limits Reset goes back to
	lim     Limits // this response's limits
	method  string
	state   state
	err     error // set once, returned by every later call
	started bool  // a byte of this response has been fed
	interim int   // 1xx responses skipped so far

	// head collects the field section being read (the head, or the
	// trailers) until its empty line arrives; lineStart is where its
	// last, unfinished line begins. Reused across responses.
	head      []byte
	lineStart int

	resp      *Response
	body      []byte
	remaining int64 // bytes left in a Content-Length body or the current chunk
	sawCR     bool  // in stateChunkEnd: the CR of the CRLF has been seen
	chunkLine []byte
	gunzips   int   // gzip layers to undo at the end (transfer and content codings)
	bodyRead  int64 // bytes read after the head: the body, kept or not, and chunked framing
	truncate  bool  // at the body limit: cut the response there, do not fail
	discard   bool  // count the body's bytes but do not keep them
	wantBody  func(*Response) bool
	skipped   bool // wantBody said no

	// into is the Response to fill (Into); spare is its old Body's
	// array, for the new body to use if it fits.
	into  *Response
	spare []byte
}

// NewParser returns a parser for the response to a request made with
// method. The method matters: a response to HEAD has no body whatever its
// headers say. Methods are case-sensitive: "HEAD", not "head".
func NewParser(method string, lim Limits) *Parser {
	lim = lim.withDefaults()
	return &Parser{base: lim, lim: lim, method: method}
}

// Reset prepares p for the next response on the same keep-alive
// connection, keeping its buffers. The previous Response is not affected.
func (p *Parser) Reset(method string) {
	head := p.head[:0]
	// One response with 60 KiB of cookies must not make every later
	// response on this connection hold 60 KiB: keep only small buffers.
	if cap(head) > 8<<10 {
		head = nil
	}
	*p = Parser{
		base:      p.base,
		lim:       p.base,
		method:    method,
		head:      head,
		chunkLine: p.chunkLine[:0],
	}
}

// Into makes the parser fill r with the next response, instead of a
// Response of its own: call it after Reset (which forgets it). Whatever r
// held is overwritten, and the arrays of its Header and Body are reused
// for the new fields and body when they have room. It is for a caller
// that recycles its responses (crawler/http1's Client does, when its
// caller calls Reply.Release); such a caller must be done with all of r
// — its Header, its Body — before giving it here.
func (p *Parser) Into(r *Response) { p.into = r }

// Done reports whether a complete final response has been parsed.
func (p *Parser) Done() bool { return p.state == stateDone }

// Started reports whether any byte of this response has been fed. It tells
// the client whether a failure may be retried on a fresh connection: a
// keep-alive connection that the server closed while idle (its timeout
// racing our request) fails before the response starts, while a failure
// after it started says something about this request and is not retried
// blindly.
func (p *Parser) Started() bool { return p.started }

// Response returns the parsed response once Done, and nil before.
func (p *Parser) Response() *Response {
	if p.state != stateDone {
		return nil
	}
	return p.resp
}

// Feed parses bytes from b and returns how many it used. It stops at the
// end of the final response, so with pipelined responses b[n:] is the start
// of the next one; once Done, it uses nothing until Reset. An error is
// final: every later call returns it.
func (p *Parser) Feed(b []byte) (n int, err error) {
	if p.err != nil {
		return 0, p.err
	}
	if len(b) > 0 {
		p.started = true
	}
	for n < len(b) && p.state != stateDone {
		var m int
		m, err = p.step(b[n:])
		n += m
		if err != nil {
			return n, p.fail(err)
		}
	}
	return n, nil
}

// step makes progress on a non-empty b in the current state and returns
// how much of b it used. Every state uses at least one byte or fails, so
// Feed's loop always ends.
func (p *Parser) step(b []byte) (int, error) {
	switch p.state {
	case stateHead:
		return p.readHead(b)
	case stateBodyLength:
		k := len(b)
		if int64(k) > p.remaining {
			k = int(p.remaining)
		}
		if p.overLimit(k) {
			return p.cut(b)
		}
		p.take(b[:k])
		p.remaining -= int64(k)
		if p.remaining == 0 {
			return k, p.finish()
		}
		return k, nil
	case stateBodyClose:
		if p.overLimit(len(b)) {
			if p.truncate {
				return p.cut(b)
			}
			return 0, errorf(ErrBodyTooLarge, "body larger than %d bytes", p.lim.MaxBodyBytes)
		}
		p.take(b)
		return len(b), nil
	case stateChunkSize, stateChunkData, stateChunkEnd:
		return p.readChunked(b)
	case stateTrailer:
		return p.readTrailer(b)
	}
	panic(fmt.Sprintf("http1: step in state %d", p.state)) // unreachable: Feed stops at Done and on errors
}

func (p *Parser) fail(err error) error {
	p.state, p.err = stateFailed, err
	p.resp, p.body = nil, nil
	return err
}

// CloseInput tells the parser that the peer closed the connection. That
// completes a body delimited by the close; anywhere else in a response it is
// an ErrTruncated error saying what was cut short. After Done it is nil.
func (p *Parser) CloseInput() error {
	if p.err != nil {
		return p.err
	}
	var err error
	switch p.state {
	case stateDone:
		return nil
	case stateBodyClose:
		if err = p.finish(); err == nil {
			return nil
		}
	case stateHead:
		switch {
		case !p.started:
			err = errorf(ErrTruncated, "connection closed before the response began")
		case p.interim > 0 && len(p.head) == 0:
			err = errorf(ErrTruncated, "connection closed after %d interim responses", p.interim)
		default:
			err = errorf(ErrTruncated, "truncated header: connection closed after %d bytes of it", len(p.head))
		}
	case stateBodyLength:
		err = errorf(ErrTruncated, "truncated body: got %d of %d bytes", len(p.body), p.resp.ContentLength)
	case stateChunkSize, stateChunkData, stateChunkEnd:
		err = errorf(ErrTruncated, "truncated chunk")
	case stateTrailer:
		err = errorf(ErrTruncated, "truncated trailer")
	}
	return p.fail(err)
}
