// Package chunked is workshop exercise 11: an incremental decoder for
// HTTP/1.1's chunked transfer coding. README.md says what to build;
// exercise.go is yours to edit.
package chunked

import "errors"

// ErrMalformed is the error of a body that breaks the chunked syntax.
// Decoders must agree on exactly what that is: two parsers that read one
// body differently are how request smuggling works.
var ErrMalformed = errors.New("chunked: malformed body")

// MaxLine bounds a chunk-size line and a trailer line, line ending not
// counted: a peer that sends an endless line must not make us buffer it.
const MaxLine = 4096
