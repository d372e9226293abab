package resp_test

import (
	"strconv"
	"strings"
	"testing"

	"loopkit/crawler/resp"
	"loopkit/future"
	"loopkit/internal/redistest"
	"loopkit/loop"
	"loopkit/task"
)

// benchmarkParse parses the same reply over and over on one parser, as a
// connection does, and reports throughput.
func benchmarkParse(b *testing.B, reply string) {
	in := []byte(reply)
	p := resp.NewParser(resp.Limits{})
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for range b.N {
		p.Reset()
		if n, err := p.Feed(in); err != nil || n != len(in) || !p.Done() {
			b.Fatalf("used %d of %d, done %v, err %v", n, len(in), p.Done(), err)
		}
	}
}

func BenchmarkParseOK(b *testing.B)      { benchmarkParse(b, "+OK\r\n") }
func BenchmarkParseInteger(b *testing.B) { benchmarkParse(b, ":1234567\r\n") }

// A URL, as a crawler's frontier would store it.
func BenchmarkParseBulk(b *testing.B) {
	url := "https://docs.example.org/guide/chapter-12/section-3.html#usage"
	benchmarkParse(b, "$"+strconv.Itoa(len(url))+"\r\n"+url+"\r\n")
}

// Ten URLs, as LRANGE or a script's batch would return them.
func BenchmarkParseArray(b *testing.B) {
	var r strings.Builder
	r.WriteString("*10\r\n")
	for i := range 10 {
		url := "https://docs.example.org/guide/page-" + strconv.Itoa(i) + ".html"
		r.WriteString("$" + strconv.Itoa(len(url)) + "\r\n" + url + "\r\n")
	}
	benchmarkParse(b, r.String())
}

// BenchmarkRoundTrip measures one command's round trip to a real
// redis-server on loopback, with inflight commands pipelined on the
// connection: each reply's callback sends the next command, so the
// window stays full. ns/op is per command, wall time (Redis's time
// included); allocs/op and B/op are the client's alone. Commands are
// Sent with callbacks, no task: the client's own cost.
func BenchmarkRoundTrip(b *testing.B) {
	srv := redistest.Start(b, redistest.Options{})
	for _, inflight := range []int{1, 16, 128} {
		for _, cmd := range [][]any{{"PING"}, {"GET", "url"}} {
			b.Run(strings.Join([]string{cmd[0].(string), "inflight=" + strconv.Itoa(inflight)}, "/"), func(b *testing.B) {
				benchRoundTrip(b, srv, inflight, cmd...)
			})
		}
	}
}

func benchRoundTrip(b *testing.B, srv *redistest.Server, inflight int, args ...any) {
	l := newLoop(b)
	c := newClient(b, l, srv.URL(), resp.Options{})
	if _, err := do(b, l, c, "SET", "url", "https://docs.example.org/guide/chapter-12.html"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	if err := pipeline(l, c, b.N, inflight, args...); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if s := c.Stats(); s.Lost != 0 {
		b.Fatalf("lost the connection: %+v", s)
	}
}

// pipeline sends n commands, keeping inflight of them on the connection:
// each reply's callback checks it and sends the next. It runs the loop
// until the last reply.
func pipeline(l *loop.Loop, c *resp.Client, n, inflight int, args ...any) error {
	ring := make([]*future.Future[resp.Value], inflight) // the commands in flight, oldest at head
	head, out, sent, replied := 0, 0, 0, 0
	finished := future.New[struct{}](l)
	var onReply func()
	send := func() {
		f := c.Send(args...)
		ring[(head+out)%inflight] = f
		out++
		sent++
		f.OnDone(onReply) // one callback value for all: no closure per command
	}
	onReply = func() {
		f := ring[head] // replies come in order: this one is the oldest
		ring[head] = nil
		head, out = (head+1)%inflight, out-1
		if err := f.Err(); err != nil {
			if !finished.Done() {
				finished.SetError(err)
			}
			return
		}
		if replied++; replied == n {
			finished.SetResult(struct{}{})
		} else if sent < n {
			send()
		}
	}
	for range min(inflight, n) {
		send()
	}
	if err := l.RunUntilComplete(finished); err != nil {
		return err
	}
	return finished.Err()
}

// BenchmarkRoundTripTask is the same round trip, one command at a time,
// awaited by a task with Do: what a coroutine adds to a callback.
func BenchmarkRoundTripTask(b *testing.B) {
	srv := redistest.Start(b, redistest.Options{})
	l := newLoop(b)
	c := newClient(b, l, srv.URL(), resp.Options{})
	if _, err := do(b, l, c, "PING"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	_, err := task.Run(l, func(y task.Yield) (struct{}, error) {
		for range b.N {
			if _, err := c.Do(y, "PING"); err != nil {
				return struct{}{}, err
			}
		}
		return struct{}{}, nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
