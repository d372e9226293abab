//go:build solution

package chunked

import (
	"bytes"
	"fmt"
)

// Decoder decodes one chunked body, fed in pieces as they arrive from the
// socket. The zero value is ready to use.
type Decoder struct {
	state     state
	remaining int64  // data still to come in the current chunk
	line      []byte // a line split across Feeds
	sawCR     bool   // the CR of the CRLF after a chunk's data
	body      []byte
	done      bool
}

// state is where the decoder has got to; each Feed may cross several.
type state uint8

const (
	stateSize    state = iota // a chunk-size line: "1a;ext=1\r\n"
	stateData                 // the chunk's data
	stateDataEnd              // the CRLF (or bare LF) after the data
	stateTrailer              // trailer lines, skipped, until an empty line
)

// Feed decodes what it can of b and returns how many bytes it used. It
// uses all of b unless the body ends inside it: the bytes after the end
// (the next response on a keep-alive connection) are left unused. After
// the end, Feed uses nothing. An error matches ErrMalformed.
func (d *Decoder) Feed(b []byte) (int, error) {
	n := 0
	for n < len(b) && !d.done {
		k, err := d.step(b[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// step moves through one state, or as far into it as b goes.
func (d *Decoder) step(b []byte) (int, error) {
	switch d.state {
	case stateSize, stateTrailer:
		line, n, ok, err := d.readLine(b)
		if !ok || err != nil {
			return n, err // incomplete (kept in d.line), or too long
		}
		if d.state == stateTrailer {
			d.done = len(line) == 0 // a trailer field is skipped; an empty line ends the body
			return n, nil
		}
		size, err := parseSize(line)
		if err != nil {
			return n, err
		}
		if size == 0 {
			d.state = stateTrailer
		} else {
			d.remaining, d.state = size, stateData
		}
		return n, nil

	case stateData:
		k := int(min(int64(len(b)), d.remaining))
		d.body = append(d.body, b[:k]...)
		if d.remaining -= int64(k); d.remaining == 0 {
			d.state = stateDataEnd
		}
		return k, nil

	default: // stateDataEnd
		switch {
		case b[0] == '\r' && !d.sawCR:
			d.sawCR = true
		case b[0] == '\n':
			d.sawCR, d.state = false, stateSize
		default:
			return 0, malformed("chunk data longer than its size, or no CRLF after it")
		}
		return 1, nil
	}
}

// readLine returns the next line of b without its ending, and how much
// of b it used. A line cut by the end of b is kept in d.line, and ok is
// false until its LF arrives. A line may end in CRLF or a bare LF.
func (d *Decoder) readLine(b []byte) (line []byte, n int, ok bool, err error) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		if len(d.line)+len(b) > MaxLine+1 { // +1: its CR may be here, its LF not yet
			return nil, 0, false, malformed(fmt.Sprintf("line longer than %d bytes", MaxLine))
		}
		d.line = append(d.line, b...)
		return nil, len(b), false, nil
	}
	line = b[:i]
	if len(d.line) > 0 { // the line began in an earlier Feed
		line = append(d.line, line...)
		d.line = d.line[:0] // reused: line stays valid until the next append
	}
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) > MaxLine {
		return nil, 0, false, malformed(fmt.Sprintf("line longer than %d bytes", MaxLine))
	}
	return line, i + 1, true, nil
}

// Done reports whether the whole body, trailer section included, has been
// read.
func (d *Decoder) Done() bool { return d.done }

// Body is the data decoded so far.
func (d *Decoder) Body() []byte { return d.body }
