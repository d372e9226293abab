package chunksize

import "errors"

// ParseSize reads the size of a chunk from its size line, given without
// its line ending: "1a", "1a;name=value", "1a ; name". An error matches
// ErrMalformed.
func ParseSize(line []byte) (int64, error) {
	// TODO: hex digits, then spaces or tabs, then nothing or ";" and the
	// extensions. Strict: see README.md.
	return 0, errors.New("chunksize: ParseSize is not written yet")
}
