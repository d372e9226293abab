//go:build workshop

package chunksize_test

import (
	"errors"
	"strings"
	"testing"

	"loopkit/docs/workshop/chunksize"
)

func parse(t *testing.T, line string, want int64) {
	t.Helper()
	got, err := chunksize.ParseSize([]byte(line))
	if err != nil || got != want {
		t.Errorf("ParseSize(%q) = %d, %v; want %d, nil", line, got, err, want)
	}
}

func refuse(t *testing.T, line, why string) {
	t.Helper()
	got, err := chunksize.ParseSize([]byte(line))
	if !errors.Is(err, chunksize.ErrMalformed) {
		t.Errorf("ParseSize(%q) = %d, %v; want ErrMalformed: %s", line, got, err, why)
	}
}

func TestHexDigits(t *testing.T) {
	parse(t, "0", 0)
	parse(t, "5", 5)
	parse(t, "1a", 26)
	parse(t, "ff", 255)
	parse(t, "10000", 65536)
}

func TestEitherCase(t *testing.T) {
	parse(t, "B", 11)
	parse(t, "aBcDeF", 0xabcdef)
	parse(t, "FFFF", 65535)
}

// Leading zeros are digits like any other: they must not be counted
// against the size's length.
func TestLeadingZeros(t *testing.T) {
	parse(t, "00a", 10)
	parse(t, "000", 0)
	parse(t, strings.Repeat("0", 40)+"1", 1)
	parse(t, strings.Repeat("0", 20)+"7fffffffffffffff", 1<<63-1)
}

func TestExtensionsAreIgnored(t *testing.T) {
	parse(t, "5;name=value", 5)
	parse(t, "5;a;b=\"c d\"", 5)
	parse(t, "5 ; x", 5)
	parse(t, "5\t;x", 5)
	parse(t, "5 \t ", 5) // whitespace, then nothing
	parse(t, "5;ext\twith a tab", 5)
}

// The largest size that fits in an int64 is a size: the data simply has
// not come yet. One more is an overflow.
func TestTheLargestSize(t *testing.T) {
	parse(t, "7fffffffffffffff", 1<<63-1)
	refuse(t, "8000000000000000", "2^63 does not fit in an int64")
	refuse(t, "ffffffffffffffff", "2^64 - 1 does not fit in an int64")
}

// 2^64 is 1 and sixteen zeros. Shifted in one digit at a time, the 1 is
// shifted out of 64 bits, and what is left reads 0: the last chunk. A
// parser that checks for overflow after the shift is fooled, and ends the
// body where the sender's parser does not — the shape of request
// smuggling.
func TestOverflowIsCaughtBeforeTheBitsAreLost(t *testing.T) {
	refuse(t, "10000000000000000", "2^64 overflows, and must not read as 0")
	refuse(t, "100000000000000005", "2^68 + 5 overflows, and must not read as 5")
	refuse(t, "1"+strings.Repeat("0", 32), "2^128 overflows")
}

// A parser more lenient than its peers is a parser that can be lied to.
func TestMalformedSizes(t *testing.T) {
	for _, c := range []struct{ line, why string }{
		{"", "no digits"},
		{";ext", "no digits before the extensions"},
		{" 5", "whitespace before the size"},
		{"+5", "a sign"},
		{"-5", "a sign"},
		{"0x5", "a 0x prefix: the size is hex already"},
		{"x", "not hex"},
		{"5x", "junk after the size"},
		{"5 x", "junk after the size and a space"},
		{"5,6", "junk after the size"},
		{"5_0", "an underscore is not a digit"},
	} {
		refuse(t, c.line, c.why)
	}
}

// Control bytes have no business after the size: the line ending was cut
// off before ParseSize was called, so a CR here is a bare CR, not part of
// a CRLF — and a CR is not whitespace.
func TestControlBytesAfterTheSize(t *testing.T) {
	for _, c := range []struct{ line, why string }{
		{"5\r", "a bare CR after the size"},
		{"5 \r", "a bare CR after a space"},
		{"5\rx", "a bare CR in the size line"},
		{"5;a\rb", "a CR in an extension"},
		{"5;a\x01b", "a control byte in an extension"},
		{"5;a\x7fb", "DEL in an extension"},
		{"5\x00", "a NUL after the size"},
		{"5\v", "a vertical tab is not whitespace here"},
	} {
		refuse(t, c.line, c.why)
	}
}

// A control byte is one below the space, or DEL: ASCII's. Bytes from 0x80
// up are not control bytes here: an extension's value may be UTF-8 text,
// or any byte above ASCII (RFC 9110's obs-text), and the real parser lets
// them through. Read as runes, bytes 0x80 to 0x9f are Unicode's C1
// controls: a parser that asks unicode.IsControl refuses a euro sign
// (e2 82 ac) that every other parser accepts.
func TestBytesAboveASCIIAreNotControlBytes(t *testing.T) {
	parse(t, "5;price=\"12 \xe2\x82\xac\"", 5) // "12 €", in UTF-8: 0x82 is a C1 control as a rune
	parse(t, "5;x=\x80\x85\x9f", 5)            // the C1 range, as raw bytes
	parse(t, "5;x=\xa0\xff", 5)                // the rest of the upper half
}
