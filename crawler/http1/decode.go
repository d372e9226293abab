package http1

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"sync"
)

// gzipReaders recycles gzip readers between responses and connections. A
// reader carries about 40 KiB of inflate state (the 32 KiB window and the
// Huffman tables); kept in every parser, it would be most of what an idle
// connection costs.
var gzipReaders sync.Pool

// finish completes the response: it undoes the gzip codings, hands the body
// over to the Response, and marks the parser Done.
func (p *Parser) finish() error {
	body := p.body
	// An empty body stays empty whatever its coding: servers send
	// "Content-Encoding: gzip" on empty redirects, and an empty gzip
	// stream is not valid gzip. A discarded body has nothing to decode.
	for i := 0; i < p.gunzips && len(body) > 0 && !p.discard; i++ {
		var err error
		if body, err = p.gunzip(body); err != nil {
			return err
		}
	}
	p.resp.Body = body
	p.body = nil // the Response owns it now
	p.state = stateDone
	return nil
}

// gunzip decompresses in, refusing to produce more than MaxBodyBytes: the
// reader is cut at limit+1 bytes, so a zip bomb costs at most the limit and
// the one extra byte proves it was exceeded.
func (p *Parser) gunzip(in []byte) ([]byte, error) {
	src := bytes.NewReader(in)
	var err error
	gz, _ := gzipReaders.Get().(*gzip.Reader)
	if gz == nil {
		gz, err = gzip.NewReader(src)
	} else {
		err = gz.Reset(src)
	}
	if err != nil {
		return nil, errorf(ErrProtocol, "bad gzip body: %v", err)
	}
	defer gzipReaders.Put(gz)
	limit := p.lim.MaxBodyBytes
	r := io.LimitReader(gz, limit+1)

	// A gzip member ends with ISIZE, the uncompressed size modulo 2^32
	// (RFC 1952 §2.3.1). It is only a hint, since a server may lie or
	// concatenate members, but when it is right the output is allocated
	// once; +1 leaves room to read the EOF without growing. Deflate cannot
	// expand data more than 1032 times, which bounds what a lying ISIZE
	// can make us reserve.
	hint := int64(512)
	if len(in) >= 4 {
		hint = int64(binary.LittleEndian.Uint32(in[len(in)-4:])) + 1
	}
	out := make([]byte, 0, min(hint, 1032*int64(len(in)), limit+1, maxPrealloc))
	for {
		if len(out) == cap(out) {
			out = append(out, 0)[:len(out)]
		}
		n, err := r.Read(out[len(out):cap(out)])
		out = out[:len(out)+n]
		if err == io.EOF {
			break
		}
		if err == io.ErrUnexpectedEOF {
			if p.resp.Truncated {
				break // we cut it ourselves: keep what decodes
			}
			// Most often a body delimited by the close, cut short when
			// the connection dropped: the gzip framing is the only way
			// to tell.
			return nil, errorf(ErrTruncated, "truncated gzip body")
		}
		if err != nil {
			return nil, errorf(ErrProtocol, "bad gzip body: %v", err)
		}
	}
	if int64(len(out)) > limit {
		if !p.truncate {
			return nil, errorf(ErrBodyTooLarge, "gzip body decodes to more than %d bytes", limit)
		}
		out, p.resp.Truncated = out[:limit], true
	}
	return out, nil
}
