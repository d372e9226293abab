// Package chunked is workshop exercise 14, the second of two parts on
// HTTP/1.1's chunked transfer coding: an incremental decoder for a whole
// body. README.md says what to build; exercise.go is yours to edit. This
// file holds what you need and need not change: the errors, the bound on
// a line, and part 1's answer, parseSize.
package chunked

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// ErrMalformed is the error of a body that breaks the chunked syntax.
// Decoders must agree on exactly what that is: two parsers that read one
// body differently are how request smuggling works.
var ErrMalformed = errors.New("chunked: malformed body")

// MaxLine bounds a chunk-size line and a trailer line, line ending not
// counted: a peer that sends an endless line must not make us buffer it.
const MaxLine = 4096

// parseSize reads the size of a chunk from its size line, given without
// its line ending: "1a", "1a;name=value", "1a ; name". It is part 1's
// answer, chunksize's ParseSize: strict where parsers have been known to
// disagree.
//
//lint:ignore U1000 Feed, which you write, calls it
func parseSize(line []byte) (int64, error) {
	var size int64
	i := 0
	for ; i < len(line); i++ {
		d := unhex(line[i])
		if d < 0 {
			break
		}
		if size > (1<<63-1)>>4 { // before the shift: after it, 2^64 reads as 0
			return 0, malformed("chunk size " + strconv.Quote(string(line)) + " overflows")
		}
		size = size<<4 | int64(d)
	}
	rest := bytes.TrimLeft(line[i:], " \t")
	if i == 0 || len(rest) > 0 && rest[0] != ';' || hasControl(rest) {
		return 0, malformed("bad chunk size line " + strconv.Quote(string(line)))
	}
	return size, nil
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// hasControl reports a control byte other than HTAB: a bare CR among them.
func hasControl(b []byte) bool {
	for _, c := range b {
		if c < ' ' && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}

// malformed is an error that matches ErrMalformed, saying why.
//
//lint:ignore U1000 yours to use
func malformed(why string) error { return fmt.Errorf("%w: %s", ErrMalformed, why) }
