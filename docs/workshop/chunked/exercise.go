package chunked

import "errors"

// Decoder decodes one chunked body, fed in pieces as they arrive from the
// socket. The zero value is ready to use.
type Decoder struct {
	// TODO: where the decoder has got to (a state), how much of the
	// current chunk's data is still to come, a line split across Feeds,
	// and the body so far.
	body []byte
	done bool
}

// Feed decodes what it can of b and returns how many bytes it used. It
// uses all of b unless the body ends inside it: the bytes after the end
// (the next response on a keep-alive connection) are left unused. After
// the end, Feed uses nothing. An error matches ErrMalformed.
func (d *Decoder) Feed(b []byte) (int, error) {
	return 0, errors.New("chunked: Feed is not written yet") // TODO
}

// Done reports whether the whole body, trailer section included, has been
// read.
func (d *Decoder) Done() bool { return d.done }

// Body is the data decoded so far.
func (d *Decoder) Body() []byte { return d.body }
