package loop_test

import (
	"encoding/json"
	"testing"
	"time"

	"loopkit/loop"
)

// AppendJSON writes each field the record has, under its documented key,
// in microseconds to a tenth; zero counts are left out, a timeout of -1
// is -1, and a turn outside Run has no timeout or wait.
func TestAppendJSONWritesEveryField(t *testing.T) {
	us := func(tenths int64) time.Duration { return time.Duration(tenths) * 100 * time.Nanosecond }
	for _, c := range []struct {
		it   loop.Iteration
		want string
	}{
		{loop.Iteration{N: 7, Start: us(512345), End: us(512401), Timeout: -1, Polled: true, Asleep: us(500123),
			Ready: []loop.Ready{{FD: 9, Read: true}, {FD: 4, Write: true, Invalid: true}},
			IO:    1, Timers: 2, Posted: 3, Callbacks: 6, Busy: us(42), Longest: us(17), LongestFunc: "main.f",
			Ops: []loop.Op{{Name: "read", FD: 9}, {Name: "register", FD: 5, Read: true, Write: true, Err: "EBADF"},
				{Name: "close", FD: 3}}},
			`{"n":7,"start_us":51234.5,"end_us":51240.1,"timeout_us":-1,"polled":true,"asleep_us":50012.3,` +
				`"ready":[{"fd":9,"r":true},{"fd":4,"w":true,"invalid":true}],"io":1,"timers":2,"posted":3,"callbacks":6,` +
				`"busy_us":4.2,"longest_us":1.7,"longest":"main.f",` +
				`"ops":[{"op":"read","fd":9,"n":0},{"op":"register","fd":5,"r":true,"w":true,"err":"EBADF"},{"op":"close","fd":3}]}` + "\n"},
		{loop.Iteration{N: 8, Outside: true, Start: us(10), End: us(10), Timeout: time.Millisecond,
			Ops: []loop.Op{{Name: "write", FD: 3, N: 5}, {Name: "accept", FD: 6, N: 7}}},
			`{"n":8,"outside":true,"start_us":1.0,"end_us":1.0,"ops":[{"op":"write","fd":3,"n":5},{"op":"accept","fd":6,"n":7}]}` + "\n"},
		{loop.Iteration{N: 1, Timeout: us(15000), Asleep: us(3)},
			`{"n":1,"start_us":0.0,"end_us":0.0,"timeout_us":1500.0}` + "\n"},
		{loop.Iteration{N: 2, Polled: true, Callbacks: 1, Busy: us(5), Longest: us(5), LongestFunc: "g"},
			`{"n":2,"start_us":0.0,"end_us":0.0,"timeout_us":0.0,"polled":true,"asleep_us":0.0,` +
				`"callbacks":1,"busy_us":0.5,"longest_us":0.5,"longest":"g"}` + "\n"},
	} {
		got := string(c.it.AppendJSON([]byte("prefix")))
		if got != "prefix"+c.want {
			t.Errorf("AppendJSON:\n got %s\nwant %s", got, "prefix"+c.want)
		}
		if !json.Valid([]byte(c.want)) {
			t.Errorf("not JSON: %s", c.want)
		}
	}
}
