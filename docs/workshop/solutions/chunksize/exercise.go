//go:build solution

package chunksize

import (
	"bytes"
	"fmt"
	"strconv"
)

// ParseSize reads the size of a chunk from its size line, given without
// its line ending: "1a", "1a;name=value", "1a ; name". Strict where
// parsers have been known to disagree: no sign, no "0x", no empty size,
// no overflow, no control bytes (a CR among them) after the size.
func ParseSize(line []byte) (int64, error) {
	var size int64
	i := 0
	for ; i < len(line); i++ {
		d := unhex(line[i])
		if d < 0 {
			break
		}
		// Checked before the shift: after it, the bits shifted out are
		// gone, and 2^64 reads as 0 — a body that ends where it does not.
		if size > (1<<63-1)>>4 {
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

func malformed(why string) error { return fmt.Errorf("%w: %s", ErrMalformed, why) }
