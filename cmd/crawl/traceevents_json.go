package main

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// The trace events are written by hand, as loop.Iteration.AppendJSON
// writes its lines: a crawl writes hundreds of them per millisecond, and
// appending to a buffer that is reused costs no allocation.

// appendEvent opens an event: `,\n{"ph":..,"name":..,"cat":..,"pid":..,"tid":..,"ts":..`.
// The caller adds what the kind needs and the closing brace.
func appendEvent(b []byte, ph, name, cat string, pid, tid int, ts time.Duration) []byte {
	b = append(b, ",\n{\"ph\":\""...)
	b = append(b, ph...)
	b = append(b, `","name":`...)
	b = appendString(b, name)
	b = append(b, `,"cat":"`...)
	b = append(b, cat...)
	b = append(b, `","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"ts":`...)
	return appendMicros(b, ts)
}

func appendDur(b []byte, d time.Duration) []byte {
	b = append(b, `,"dur":`...)
	return appendMicros(b, d)
}

// appendMicros writes d in microseconds, to the nanosecond.
func appendMicros(b []byte, d time.Duration) []byte {
	return strconv.AppendFloat(b, float64(d)/1e3, 'f', 3, 64)
}

// appendArg adds `,"key":"value"` to an args object already opened.
func appendArg(b []byte, key, value string) []byte {
	b = append(b, ',')
	b = appendString(b, key)
	b = append(b, ':')
	return appendString(b, value)
}

// appendMeta names a process or a thread.
func appendMeta(b []byte, what string, pid, tid int, name string) []byte {
	b = appendEvent(b, "M", what, "__metadata", pid, tid, 0)
	b = append(b, `,"args":{"name":`...)
	return append(appendString(b, name), "}}"...)
}

// appendSort puts a process at its place among the others.
func appendSort(b []byte, pid, index int) []byte {
	b = appendEvent(b, "M", "process_sort_index", "__metadata", pid, 0, 0)
	b = append(b, `,"args":{"sort_index":`...)
	return append(strconv.AppendInt(b, int64(index), 10), "}}"...)
}

// appendString writes s as a JSON string: quotes, backslashes and control
// characters escaped, and bytes that are not UTF-8 replaced (a URL may
// hold anything). strconv.Quote would write Go escapes, not JSON's.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[r>>4], "0123456789abcdef"[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
