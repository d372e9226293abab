// Package chunksize is workshop exercise 13, the first of two parts on
// HTTP/1.1's chunked transfer coding: reading a chunk-size line, strictly.
// README.md says what to build; exercise.go is yours to edit.
package chunksize

import "errors"

// ErrMalformed is the error of a chunk-size line that breaks the syntax.
// Decoders must agree on exactly what that is: two parsers that read one
// body differently are how request smuggling works.
var ErrMalformed = errors.New("chunked: malformed body")
