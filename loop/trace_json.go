package loop

import (
	"strconv"
	"time"
)

// AppendJSON appends the record as one line of JSON (JSON Lines), newline
// included. Durations are in microseconds, to a tenth; a timeout of -1
// means "forever". Fields that are zero are left out, except the turn's
// number and times. Written by hand rather than with encoding/json: a
// trace writes a record per turn, and this costs no allocation.
//
//	{"n":7,"start_us":51234.5,"end_us":51240.1,"timeout_us":-1,"polled":true,
//	 "asleep_us":50012.3,"ready":[{"fd":9,"r":true}],"io":1,"callbacks":1,
//	 "busy_us":4.2,"longest_us":4.2,"longest":"main.(*Fetcher).readResponse-fm",
//	 "ops":[{"op":"read","fd":9,"n":1024}]}
func (it *Iteration) AppendJSON(b []byte) []byte {
	b = append(b, `{"n":`...)
	b = strconv.AppendUint(b, it.N, 10)
	if it.Outside {
		b = append(b, `,"outside":true`...)
	}
	b = appendMicros(b, "start_us", it.Start)
	b = appendMicros(b, "end_us", it.End)
	if !it.Outside {
		b = append(b, `,"timeout_us":`...)
		if it.Timeout < 0 {
			b = append(b, "-1"...)
		} else {
			b = strconv.AppendFloat(b, micros(it.Timeout), 'f', 1, 64)
		}
		if it.Polled {
			b = append(b, `,"polled":true`...)
			b = appendMicros(b, "asleep_us", it.Asleep)
		}
	}
	if len(it.Ready) > 0 {
		b = append(b, `,"ready":[`...)
		for i, r := range it.Ready {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFD(b, r.FD, r.Read, r.Write)
			if r.Invalid {
				b = append(b, `,"invalid":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendCount(b, "io", it.IO)
	b = appendCount(b, "timers", it.Timers)
	b = appendCount(b, "posted", it.Posted)
	b = appendCount(b, "callbacks", it.Callbacks)
	if it.Callbacks > 0 {
		b = appendMicros(b, "busy_us", it.Busy)
		b = appendMicros(b, "longest_us", it.Longest)
		b = append(b, `,"longest":`...)
		b = strconv.AppendQuote(b, it.LongestFunc)
	}
	if len(it.Ops) > 0 {
		b = append(b, `,"ops":[`...)
		for i, op := range it.Ops {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"op":"`...)
			b = append(b, op.Name...)
			b = append(b, '"')
			b = append(b, `,"fd":`...)
			b = strconv.AppendInt(b, int64(op.FD), 10)
			b = appendBool(b, "r", op.Read)
			b = appendBool(b, "w", op.Write)
			if op.Name == "read" || op.Name == "write" || op.N != 0 {
				b = append(b, `,"n":`...)
				b = strconv.AppendInt(b, int64(op.N), 10)
			}
			if op.Err != "" {
				b = append(b, `,"err":`...)
				b = strconv.AppendQuote(b, op.Err)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, "}\n"...)
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

func appendMicros(b []byte, key string, d time.Duration) []byte {
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return strconv.AppendFloat(b, micros(d), 'f', 1, 64)
}

func appendCount(b []byte, key string, n int) []byte {
	if n == 0 {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return strconv.AppendInt(b, int64(n), 10)
}

func appendBool(b []byte, key string, v bool) []byte {
	if !v {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, key...)
	return append(b, `":true`...)
}

func appendFD(b []byte, fd int, r, w bool) []byte {
	b = append(b, `{"fd":`...)
	b = strconv.AppendInt(b, int64(fd), 10)
	b = appendBool(b, "r", r)
	return appendBool(b, "w", w)
}
