package main

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// The trace events are written by hand, as loop.Iteration.AppendJSON
// writes its lines: a crawl writes hundreds of them per millisecond, and
// appending to a buffer that is reused costs no allocation.

// Times are whole microseconds. A viewer reads "ts" and "dur" as
// floating-point numbers and adds them up: with fractions (12.345), a
// child that ends exactly where its parent does in decimal may end a hair
// after it in binary, and the viewer sees a slice that never closes.
// Whole numbers are exact in a float64, and so are their sums. Every time
// is rounded by micros, one monotone function, so a time no later than
// another stays no later once rounded: what nests in nanoseconds nests
// in microseconds. span clamps what a rounding cannot keep in place.

// micros rounds d to the nearest microsecond, halves up, below zero too.
func micros(d time.Duration) int64 {
	d += 500 * time.Nanosecond
	us := int64(d / time.Microsecond)
	if d%time.Microsecond < 0 {
		us-- // division truncates toward zero; rounding must not
	}
	return us
}

// span is a slice on a thread, in microseconds: from start to end.
type span struct{ start, end int64 }

// inside returns the slice from start to end (microseconds), moved inside
// the parent's span and after the parent's cursor (where its previous
// child ended), and moves the cursor to its end. Children of a parent
// thus never overlap, and never leave it.
func (p *span) inside(cursor *int64, start, end int64) span {
	s := min(max(start, *cursor, p.start), p.end)
	e := min(max(end, s), p.end)
	*cursor = e
	return span{s, e}
}

// appendEvent opens an event: `,\n{"ph":..,"name":..,"cat":..,"pid":..,"tid":..,"ts":..`.
// The caller adds what the kind needs and the closing brace.
func appendEvent(b []byte, ph, name, cat string, pid, tid int, ts int64) []byte {
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
	return strconv.AppendInt(b, ts, 10)
}

// appendSlice opens a complete slice ("X") over sp; the caller adds its
// arguments, if any, and the closing brace. A slice that rounds to no
// time (a callback of a few hundred nanoseconds) is an instant instead, a
// tick on its thread: speedscope reads a slice as a begin and an end, and
// can place a begin and an end at the same time only when no longer
// slice begins there too — after a callback that took the turn's first
// microsecond, the next one's end would come before its begin.
func appendSlice(b []byte, name, cat string, pid, tid int, sp span) []byte {
	if sp.end == sp.start {
		b = appendEvent(b, "i", name, cat, pid, tid, sp.start)
		return append(b, `,"s":"t"`...)
	}
	b = appendEvent(b, "X", name, cat, pid, tid, sp.start)
	b = append(b, `,"dur":`...)
	return strconv.AppendInt(b, sp.end-sp.start, 10)
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

// appendSort puts a process (what "process_sort_index", tid 0) or a thread
// ("thread_sort_index") at its place among the others.
func appendSort(b []byte, what string, pid, tid, index int) []byte {
	b = appendEvent(b, "M", what, "__metadata", pid, tid, 0)
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
