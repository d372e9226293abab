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

// The kinds of entry, as the first field of a line.
const (
	kindQueued = 'Q'
	kindDone   = 'D'
	kindRobots = 'R'
	kindHold   = 'H'
)

// AppendQueued appends the entry "url was found and queued" to b.
func AppendQueued(b []byte, url string, depth, redirects int32) []byte {
	start := len(b)
	b = append(b, kindQueued, '\t')
	b = strconv.AppendInt(b, int64(depth), 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(redirects), 10)
	b = append(b, '\t')
	b = append(b, url...)
	return seal(b, start)
}

// AppendDone appends the entry "url is done" to b.
func AppendDone(b []byte, url string) []byte {
	start := len(b)
	b = append(b, kindDone, '\t')
	b = append(b, url...)
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
	start := len(b)
	b = append(b, kindHold, '\t')
	b = append(b, authority...)
	b = append(b, '\t')
	b = strconv.AppendInt(b, until.UnixMilli(), 10)
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
	url       string // Q, D; the origin for R, the authority for H
	depth     int32
	redirects int32
	until     time.Time // R, H
	body      []byte    // R: the robots.txt
}

var errBadEntry = errors.New("journal: a damaged entry")

// parseEntry decodes one line, without its newline. A line whose checksum
// does not match, or that does not parse, is errBadEntry.
func parseEntry(line []byte) (entry, error) {
	cut := bytes.LastIndexByte(line, '\t')
	if cut < 0 || len(line)-cut-1 != 8 {
		return entry{}, errBadEntry
	}
	sum, err := strconv.ParseUint(string(line[cut+1:]), 16, 32)
	if err != nil || uint32(sum) != crc32.ChecksumIEEE(line[:cut]) {
		return entry{}, errBadEntry
	}
	fields := bytes.Split(line[:cut], []byte{'\t'})
	if len(fields[0]) != 1 {
		return entry{}, errBadEntry
	}
	e := entry{kind: fields[0][0]}
	switch {
	case e.kind == kindQueued && len(fields) == 4:
		depth, err1 := strconv.ParseInt(string(fields[1]), 10, 32)
		redirects, err2 := strconv.ParseInt(string(fields[2]), 10, 32)
		if err1 != nil || err2 != nil {
			return entry{}, errBadEntry
		}
		e.depth, e.redirects, e.url = int32(depth), int32(redirects), string(fields[3])
	case e.kind == kindDone && len(fields) == 2:
		e.url = string(fields[1])
	case e.kind == kindRobots && len(fields) == 4:
		ms, err1 := strconv.ParseInt(string(fields[2]), 10, 64)
		body, err2 := base64.StdEncoding.AppendDecode(nil, fields[3])
		if err1 != nil || err2 != nil {
			return entry{}, errBadEntry
		}
		e.url, e.until, e.body = string(fields[1]), time.UnixMilli(ms), body
	case e.kind == kindHold && len(fields) == 3:
		ms, err := strconv.ParseInt(string(fields[2]), 10, 64)
		if err != nil {
			return entry{}, errBadEntry
		}
		e.url, e.until = string(fields[1]), time.UnixMilli(ms)
	default:
		return entry{}, errBadEntry
	}
	return e, nil
}
