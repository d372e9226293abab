package journal

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"time"
)

// The kinds of entry, as the first field of a line. The journal's:
const (
	kindQueued = 'Q' // a URL found and queued
	kindSent   = 'S' // a page's request went on the wire
	kindDone   = 'D' // a URL done, with no -o to vouch for it
	kindOutput = 'O' // -o's bytes from..to hold these URLs' lines
	kindRobots = 'R' // a host's robots.txt
	kindHold   = 'H' // a Retry-After hold on a server
	kindStart  = 'X' // a start: -o, this file, holds exactly this many bytes, vouched for (1: and is another file now)
	kindEnd    = 'E' // the crawl ended with nothing left to do
	kindUndone = 'U' // a URL done is to do again: its line in -o was lost
)

// and a snapshot's own (snapshot.go):
const (
	kindHeader   = 'I' // what the snapshot is: its first entry
	kindFile     = 'F' // the -o file whose bytes the header vouches for
	kindPages    = 'C' // pages done on a host, for Config.MaxPagesPerHost
	kindVariants = 'V' // queries done on a path, for Config.MaxQueryVariants
	kindTrailer  = 'Z' // the snapshot is whole: its last entry
)

// AppendQueued appends the entry "url was found and queued" to b.
func AppendQueued(b []byte, url string, depth, redirects int32) []byte {
	return appendQueued(b, kindQueued, url, depth, redirects)
}

func appendQueued(b []byte, kind byte, url string, depth, redirects int32) []byte {
	start := len(b)
	b = append(b, kind, '\t')
	b = strconv.AppendInt(b, int64(depth), 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(redirects), 10)
	b = append(b, '\t')
	b = append(b, url...)
	return seal(b, start)
}

// AppendSent appends "url's request went on the wire" to b: a crawl that
// stops with it in flight hands it out last when it starts again, so a
// page that crashed the crawler is not the first thing the next one does.
func AppendSent(b []byte, url string) []byte { return appendURL(b, kindSent, url) }

// AppendDone appends the entry "url is done" to b: the record of a crawl
// whose output, if any, cannot be read back (a pipe, /dev/null). A crawl
// with an -o file vouches for its lines with AppendOutput instead.
func AppendDone(b []byte, url string) []byte { return appendURL(b, kindDone, url) }

// appendStart appends an X entry: a start found the -o file at path
// holding outLen bytes, all vouched for; newFile says it is another file
// than the crawl's until now. The path says which file the size was
// measured on, so that no later start applies it to another (log.go).
// It is quoted: a path may hold a tab.
func appendStart(b []byte, outLen int64, newFile bool, path string) []byte {
	n := int64(0)
	if newFile {
		n = 1
	}
	if path == "" {
		return appendNumbers(b, kindStart, outLen, n)
	}
	start := len(b)
	b = append(b, kindStart, '\t')
	b = strconv.AppendInt(b, outLen, 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, n, 10)
	b = append(b, '\t')
	b = strconv.AppendQuote(b, path)
	return seal(b, start)
}

// appendFile appends a snapshot's F entry: the -o file at path is the
// one whose bytes its header vouches for.
func appendFile(b []byte, path string) []byte {
	return appendURL(b, kindFile, strconv.Quote(path))
}

func appendURL(b []byte, kind byte, url string) []byte {
	start := len(b)
	b = append(b, kind, '\t')
	b = append(b, url...)
	return seal(b, start)
}

// A Line is a record's line in the -o file: whose it is (its URL and
// depth), and its length in bytes, newline included.
type Line struct {
	URL   string
	Depth int32
	Len   int
}

// linesPerMark is the most lines one output entry vouches for, so that
// an entry stays far below maxEntry however long a batch is.
const linesPerMark = 256

// AppendOutput appends entries vouching for lines, the records written to
// -o at offset from: each says which bytes of -o hold which URLs' lines,
// with a CRC-32 of those bytes. A record is done only once such an entry
// is in the journal with every entry before it whole: the links its page
// led to were queued before it, so they are whole too. lines holds the
// lines of recs, in order.
func AppendOutput(b []byte, from int64, lines []byte, recs []Line) []byte {
	for len(recs) > 0 {
		n := min(len(recs), linesPerMark)
		size := 0
		for _, r := range recs[:n] {
			size += r.Len
		}
		b = appendMark(b, from, from+int64(size), crc32.ChecksumIEEE(lines[:size]), recs[:n])
		from += int64(size)
		lines, recs = lines[size:], recs[n:]
	}
	return b
}

// appendMark appends an O entry: -o's bytes from..to, whose CRC-32 is
// sum, hold the lines of recs.
func appendMark(b []byte, from, to int64, sum uint32, recs []Line) []byte {
	start := len(b)
	b = append(b, kindOutput, '\t')
	b = strconv.AppendInt(b, from, 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, to, 10)
	b = append(b, '\t')
	b = fmt.Appendf(b, "%08x", sum)
	for _, r := range recs {
		b = append(b, '\t')
		b = strconv.AppendInt(b, int64(r.Depth), 10)
		b = append(b, '\t')
		b = append(b, r.URL...)
	}
	return seal(b, start)
}

// AppendRobots appends origin's robots.txt, usable until until, to b.
func AppendRobots(b []byte, origin string, until time.Time, body []byte) []byte {
	start := len(b)
	b = append(b, kindRobots, '\t')
	b = append(b, origin...)
	b = append(b, '\t')
	b = strconv.AppendInt(b, until.UnixMilli(), 10)
	b = append(b, '\t')
	b = base64.StdEncoding.AppendEncode(b, body)
	return seal(b, start)
}

// AppendHold appends "nothing is sent to authority before until" to b.
func AppendHold(b []byte, authority string, until time.Time) []byte {
	return appendCount(b, kindHold, authority, until.UnixMilli())
}

// appendNumbers appends an entry of kind with only numbers after it.
func appendNumbers(b []byte, kind byte, numbers ...int64) []byte {
	start := len(b)
	b = append(b, kind)
	for _, n := range numbers {
		b = append(b, '\t')
		b = strconv.AppendInt(b, n, 10)
	}
	return seal(b, start)
}

// appendCount appends an entry of kind naming key and a number.
func appendCount(b []byte, kind byte, key string, n int64) []byte {
	start := len(b)
	b = append(b, kind, '\t')
	b = append(b, key...)
	b = append(b, '\t')
	b = strconv.AppendInt(b, n, 10)
	return seal(b, start)
}

// seal ends the entry that starts at b[start:] with its checksum and a
// newline. A URL is normalized, so it holds no tab or newline; the other
// fields are numbers, an origin, or base64.
func seal(b []byte, start int) []byte {
	sum := crc32.ChecksumIEEE(b[start:])
	b = append(b, '\t')
	b = fmt.Appendf(b, "%08x", sum)
	return append(b, '\n')
}

// entry is one decoded line.
type entry struct {
	kind      byte
	url       string // Q, S, D; the origin for R, the authority for H, the key for C and V, the -o file for X and F
	depth     int32
	redirects int32
	until     time.Time // R, H
	body      []byte    // R: the robots.txt
	n         []int64   // the numbers of O (from, to), X, E, C, V, I, Z
	sum       uint32    // O: the CRC-32 of the bytes it vouches for
	lines     []Line    // O: whose lines they are (Len unknown: 0)
}

var errBadEntry = errors.New("journal: a damaged entry")

// numbers is how many numbers follow the kinds of entry that hold only
// numbers.
var numbers = map[byte]int{kindStart: 2, kindEnd: 0, kindHeader: 6, kindTrailer: 1}

// parseEntry decodes one line, without its newline. A line whose checksum
// does not match, or that does not parse, is errBadEntry.
func parseEntry(line []byte) (entry, error) {
	cut := bytes.LastIndexByte(line, '\t')
	if cut < 0 || len(line)-cut-1 != 8 {
		return entry{}, errBadEntry
	}
	sum, ok := parseHex32(line[cut+1:])
	if !ok || sum != crc32.ChecksumIEEE(line[:cut]) {
		return entry{}, errBadEntry
	}
	var short [6][]byte // most entries have few fields: no allocation for them
	fields := splitTabs(line[:cut], short[:0])
	if len(fields[0]) != 1 {
		return entry{}, errBadEntry
	}
	e := entry{kind: fields[0][0]}
	var bad bool
	num := func(f []byte) int64 {
		n, ok := parseInt(f)
		bad = bad || !ok
		return n
	}
	switch {
	case (e.kind == kindQueued || e.kind == kindUndone) && len(fields) == 4:
		e.depth, e.redirects, e.url = int32(num(fields[1])), int32(num(fields[2])), string(fields[3])
	case (e.kind == kindSent || e.kind == kindDone) && len(fields) == 2:
		e.url = string(fields[1])
	case e.kind == kindOutput && len(fields) >= 4 && len(fields)%2 == 0:
		e.n = []int64{num(fields[1]), num(fields[2])}
		s, ok := parseHex32(fields[3])
		bad = bad || !ok || e.n[0] < 0 || e.n[1] <= e.n[0]
		e.sum = s
		for i := 4; i < len(fields); i += 2 {
			e.lines = append(e.lines, Line{Depth: int32(num(fields[i])), URL: string(fields[i+1])})
		}
	case e.kind == kindRobots && len(fields) == 4:
		body, err := base64.StdEncoding.AppendDecode(nil, fields[3])
		bad = bad || err != nil
		e.url, e.until, e.body = string(fields[1]), time.UnixMilli(num(fields[2])), body
	case e.kind == kindStart && len(fields) == 4: // with the -o file's path
		e.n = []int64{num(fields[1]), num(fields[2])}
		path, err := strconv.Unquote(string(fields[3]))
		bad = bad || err != nil
		e.url = path
	case e.kind == kindFile && len(fields) == 2:
		path, err := strconv.Unquote(string(fields[1]))
		bad = bad || err != nil
		e.url = path
	case (e.kind == kindHold || e.kind == kindPages || e.kind == kindVariants) && len(fields) == 3:
		e.url, e.n = string(fields[1]), []int64{num(fields[2])}
		e.until = time.UnixMilli(e.n[0])
	default:
		if want, ok := numbers[e.kind]; !ok || len(fields) != 1+want {
			return entry{}, errBadEntry
		}
		for _, f := range fields[1:] {
			e.n = append(e.n, num(f))
		}
	}
	if bad {
		return entry{}, errBadEntry
	}
	return e, nil
}

// splitTabs appends the tab-separated fields of b to fields.
func splitTabs(b []byte, fields [][]byte) [][]byte {
	for {
		i := bytes.IndexByte(b, '\t')
		if i < 0 {
			return append(fields, b)
		}
		fields = append(fields, b[:i])
		b = b[i+1:]
	}
}

// parseInt reads a decimal integer, perhaps negative. A journal is read
// entry by entry, millions of them at a start: strconv's functions take
// a string, and a string made of the bytes would be an allocation each.
func parseInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// parseHex32 reads the 8 hex digits of a checksum.
func parseHex32(b []byte) (uint32, bool) {
	if len(b) != 8 {
		return 0, false
	}
	var n uint32
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			return 0, false
		}
		n = n<<4 | uint32(c)
	}
	return n, true
}
