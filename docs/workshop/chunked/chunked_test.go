//go:build workshop

package chunked_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"loopkit/docs/workshop/chunked"
)

// wiki is the classic example: three chunks, the last with CRLFs inside
// its data, then the last-chunk and the empty trailer section.
const wiki = "4\r\nWiki\r\n7\r\npedia i\r\nB\r\nn \r\nchunks.\r\n0\r\n\r\n"
const wikiBody = "Wikipedia in \r\nchunks."

// feed feeds the pieces in turn and checks that each is used whole.
func feed(t *testing.T, pieces ...string) *chunked.Decoder {
	t.Helper()
	var d chunked.Decoder
	for i, p := range pieces {
		n, err := d.Feed([]byte(p))
		if err != nil {
			t.Fatalf("Feed of piece %d (%q): %v", i, p, err)
		}
		if n != len(p) {
			t.Fatalf("Feed of piece %d (%q) used %d bytes; want all %d: the body does not end there", i, p, n, len(p))
		}
	}
	return &d
}

func expectBody(t *testing.T, d *chunked.Decoder, want string, how string) {
	t.Helper()
	if !d.Done() || string(d.Body()) != want {
		t.Fatalf("%s: Done %v, Body %q; want true, %q", how, d.Done(), d.Body(), want)
	}
}

func TestDecodesAWholeBody(t *testing.T) {
	expectBody(t, feed(t, wiki), wikiBody, "fed whole")
}

// Bytes arrive from a socket cut anywhere: in a size, between CR and LF,
// in the data. The decoder must not care.
func TestEverySplitGivesTheSameBody(t *testing.T) {
	for i := 1; i < len(wiki); i++ {
		expectBody(t, feed(t, wiki[:i], wiki[i:]), wikiBody, fmt.Sprintf("split at %d", i))
	}
	var bytewise []string
	for i := range len(wiki) {
		bytewise = append(bytewise, wiki[i:i+1])
	}
	expectBody(t, feed(t, bytewise...), wikiBody, "fed one byte at a time")
}

// On a keep-alive connection the next response follows at once; the
// decoder must stop exactly at the end of the body.
func TestStopsAtTheEndOfTheBody(t *testing.T) {
	next := "HTTP/1.1 200 OK\r\n"
	var d chunked.Decoder
	n, err := d.Feed([]byte(wiki + next))
	if err != nil || n != len(wiki) {
		t.Fatalf("Feed = %d, %v; want %d, nil: the bytes after the body are not its own", n, err, len(wiki))
	}
	expectBody(t, &d, wikiBody, "followed by a response")
	if n, err := d.Feed([]byte(next)); n != 0 || err != nil {
		t.Fatalf("Feed after the end = %d, %v; want 0, nil", n, err)
	}
	// The same, a byte at a time: the last byte used is the body's last.
	var e chunked.Decoder
	used := 0
	for i := range len(wiki + next) {
		k, err := e.Feed([]byte((wiki + next)[i : i+1]))
		if err != nil {
			t.Fatalf("byte %d: %v", i, err)
		}
		used += k
	}
	if used != len(wiki) {
		t.Fatalf("fed byte by byte, %d bytes were used; want %d", used, len(wiki))
	}
}

func TestExtensionsTrailersAndBareLFs(t *testing.T) {
	body := "5;name=value\r\nhello\r\n6 ; x\nworld!\n0;last=1\r\nExpires: never\r\nX-A: b\n\r\n"
	expectBody(t, feed(t, body), "helloworld!", "extensions, bare LFs and trailers")
}

func TestHexSizesInEitherCaseWithLeadingZeros(t *testing.T) {
	expectBody(t, feed(t, "00a\r\n0123456789\r\n00B\r\nabcdefghijk\r\n000\r\n\r\n"),
		"0123456789abcdefghijk", "sizes 00a, 00B, 000")
}

func TestAnEmptyBody(t *testing.T) {
	expectBody(t, feed(t, "0\r\n\r\n"), "", "0\\r\\n\\r\\n")
}

func TestALargeChunkFedInPieces(t *testing.T) {
	data := strings.Repeat("0123456789abcdef", 4096) // 64 KiB
	body := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(data), data)
	var pieces []string
	for i := 0; i < len(body); i += 1000 {
		pieces = append(pieces, body[i:min(i+1000, len(body))])
	}
	d := feed(t, pieces...)
	if !d.Done() || !bytes.Equal(d.Body(), []byte(data)) {
		t.Fatalf("Done %v, body of %d bytes; want true, the %d bytes sent", d.Done(), len(d.Body()), len(data))
	}
}

// Each must fail with ErrMalformed, fed whole and fed a byte at a time —
// including the endless lines, before their end ever comes.
func TestMalformedBodies(t *testing.T) {
	for _, c := range []struct{ name, body string }{
		{"empty size", "\r\nhello\r\n0\r\n\r\n"},
		{"not hex", "x\r\n"},
		{"0x prefix", "0x5\r\nhello\r\n0\r\n\r\n"},
		{"plus sign", "+5\r\nhello\r\n0\r\n\r\n"},
		{"minus sign", "-5\r\n"},
		{"leading space", " 5\r\nhello\r\n0\r\n\r\n"},
		{"junk after the size", "5 x\r\nhello\r\n0\r\n\r\n"},
		{"control byte in an extension", "5;a\x01b\r\nhello\r\n0\r\n\r\n"},
		{"bare CR in the size line", "5\rx\nhello\r\n0\r\n\r\n"},
		{"size overflows int64", "8000000000000000\r\n"},
		{"data longer than its size", "5\r\nhelloX\r\n0\r\n\r\n"},
		{"data longer than its size, then what reads as a chunk", "5\r\nhelloX1\r\nZ\r\n0\r\n\r\n"},
		{"CR then not LF, then what reads as a chunk", "5\r\nhello\rX1\r\nZ\r\n0\r\n\r\n"},
		{"CR then not LF after the data", "5\r\nhello\rX\n0\r\n\r\n"},
		{"two CRs after the data", "5\r\nhello\r\r\n0\r\n\r\n"},
		{"endless size line", "5;" + strings.Repeat("a", 2*chunked.MaxLine)},
		{"endless trailer line", "0\r\nX-Long: " + strings.Repeat("a", 2*chunked.MaxLine)},
	} {
		var whole chunked.Decoder
		if _, err := whole.Feed([]byte(c.body)); !errors.Is(err, chunked.ErrMalformed) {
			t.Errorf("%s, fed whole: error %v; want ErrMalformed", c.name, err)
		}
		var bytewise chunked.Decoder
		var err error
		for i := 0; i < len(c.body) && err == nil; i++ {
			_, err = bytewise.Feed([]byte{c.body[i]})
		}
		if !errors.Is(err, chunked.ErrMalformed) {
			t.Errorf("%s, fed byte by byte: error %v; want ErrMalformed", c.name, err)
		}
	}
}

// MaxLine bounds a line without its ending. A line of exactly MaxLine
// bytes is fine, wherever the socket cuts it — also between its CR and its
// LF, when the CR has arrived and the line cannot yet know it is over. A
// longer line is refused, as soon as what has come cannot be a line of
// MaxLine bytes and its CR.
func TestALineOfMaxLineBytesMaySplitAnywhere(t *testing.T) {
	size := "1;" + strings.Repeat("x", chunked.MaxLine-2) // exactly MaxLine bytes
	trailer := "X-T: " + strings.Repeat("y", chunked.MaxLine-5)
	body := size + "\r\nA\r\n0\r\n" + trailer + "\r\n\r\n"
	for _, line := range []string{size, trailer} {
		end := strings.Index(body, line) + len(line) // where its CRLF starts
		for _, cut := range []int{end - 1, end, end + 1, end + 2} {
			expectBody(t, feed(t, body[:cut], body[cut:]), "A", fmt.Sprintf("a line of MaxLine bytes, cut at %d (its end is at %d)", cut, end))
		}
	}
	long := "1;" + strings.Repeat("x", chunked.MaxLine-1) // MaxLine+1 bytes
	var whole chunked.Decoder
	if _, err := whole.Feed([]byte(long + "\r\nA\r\n0\r\n\r\n")); !errors.Is(err, chunked.ErrMalformed) {
		t.Errorf("a size line of MaxLine+1 bytes: error %v; want ErrMalformed", err)
	}
	// MaxLine+1 bytes may still be a whole line and its CR; one more
	// cannot be.
	var cut chunked.Decoder
	if _, err := cut.Feed([]byte(long + "x")); !errors.Is(err, chunked.ErrMalformed) {
		t.Errorf("a size line of MaxLine+2 bytes, its end not yet here: error %v; want ErrMalformed at once", err)
	}
}

// The largest size that fits is not an error: the data simply has not
// come yet.
func TestTheLargestSizeIsAccepted(t *testing.T) {
	var d chunked.Decoder
	if n, err := d.Feed([]byte("7fffffffffffffff\r\nabc")); n != 21 || err != nil || d.Done() {
		t.Fatalf("Feed = %d, %v, Done %v; want 21, nil, false", n, err, d.Done())
	}
	if string(d.Body()) != "abc" {
		t.Fatalf("Body %q; want %q", d.Body(), "abc")
	}
}
