package http1_test

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"loopkit/crawler/http1"
)

// Two pipelined responses arrive in one read: Feed stops at the end of the
// first and says where that is; after Reset the rest is the second.
func TestPipelinedResponses(t *testing.T) {
	first := "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst"
	second := "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked("sec", "ond")
	buf := []byte(first + second)

	p := http1.NewParser("GET", http1.Limits{})
	n, err := p.Feed(buf)
	if err != nil || !p.Done() || n != len(first) {
		t.Fatalf("first: used %d, done %v, err %v; want %d, true, nil", n, p.Done(), err, len(first))
	}
	resp1 := p.Response()

	if m, _ := p.Feed(buf[n:]); m != 0 {
		t.Errorf("Feed after Done used %d bytes; it must wait for Reset", m)
	}

	p.Reset("GET")
	if p.Done() || p.Started() || p.Response() != nil {
		t.Fatal("Reset left state from the first response")
	}
	m, err := p.Feed(buf[n:])
	if err != nil || !p.Done() || m != len(second) {
		t.Fatalf("second: used %d, done %v, err %v", m, p.Done(), err)
	}
	resp2 := p.Response()
	if resp2.StatusCode != 404 || string(resp2.Body) != "second" {
		t.Errorf("second response: %s", describe(resp2))
	}
	// The first Response belongs to the caller: parsing the second must
	// not have reused its memory.
	if resp1.StatusCode != 200 || string(resp1.Body) != "first" || resp1.Header.Get("content-length") != "5" {
		t.Errorf("first response changed after Reset: %s", describe(resp1))
	}
}

// Started tells the client whether a failed request may be retried on a
// new connection: only when the server sent nothing at all.
func TestStarted(t *testing.T) {
	p := http1.NewParser("GET", http1.Limits{})
	if p.Started() {
		t.Fatal("Started before any byte")
	}
	p.Feed(nil)
	if p.Started() {
		t.Fatal("Started after an empty read")
	}
	err := p.CloseInput()
	if !errors.Is(err, http1.ErrTruncated) || p.Started() {
		t.Fatalf("EOF on an idle connection: err %v, Started %v", err, p.Started())
	}

	p = http1.NewParser("GET", http1.Limits{})
	p.Feed([]byte("H"))
	if !p.Started() {
		t.Fatal("not Started after one byte")
	}
	if err := p.CloseInput(); !errors.Is(err, http1.ErrTruncated) {
		t.Fatalf("EOF after one byte: %v", err)
	}
}

// Once Feed has failed, the parser keeps failing the same way: a caller
// that misses one error cannot go on reading garbage as a response.
func TestErrorIsSticky(t *testing.T) {
	p := http1.NewParser("GET", http1.Limits{})
	_, err := p.Feed([]byte("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n"))
	if !errors.Is(err, http1.ErrProtocol) {
		t.Fatalf("err %v", err)
	}
	if _, again := p.Feed([]byte("HTTP/1.1 200 OK\r\n\r\n")); again != err {
		t.Errorf("Feed after an error: %v, want %v", again, err)
	}
	if again := p.CloseInput(); again != err {
		t.Errorf("CloseInput after an error: %v, want %v", again, err)
	}
	if p.Done() || p.Response() != nil {
		t.Error("Done or a Response after an error")
	}
}

func TestResponseBeforeDone(t *testing.T) {
	p := http1.NewParser("GET", http1.Limits{})
	p.Feed([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel"))
	if p.Done() || p.Response() != nil {
		t.Fatal("a response before its body arrived")
	}
	if _, err := p.Feed([]byte("lo")); err != nil || !p.Done() {
		t.Fatalf("err %v, done %v", err, p.Done())
	}
	if err := p.CloseInput(); err != nil {
		t.Errorf("EOF after a complete response: %v", err)
	}
}

// The limits are inclusive: exactly at the limit is accepted, one byte
// more is refused, whether the body is framed by length, by chunks, by
// the close, or expands from gzip.
func TestLimitsAreInclusive(t *testing.T) {
	const limit = 50
	lim := http1.Limits{MaxHeaderBytes: limit, MaxBodyBytes: limit}
	bodies := map[string]func(n int) string{
		"Content-Length": func(n int) string {
			return okStatus + "Content-Length: " + strconv.Itoa(n) + "\r\n\r\n" + strings.Repeat("a", n)
		},
		// The limit counts the framing too: "27\r\n", "\r\n" and
		// "0\r\n\r\n" around n-11 bytes of data make a chunked body of n bytes.
		"chunked": func(n int) string {
			return okStatus + "Transfer-Encoding: chunked\r\n\r\n" + chunked(strings.Repeat("a", n-11))
		},
		"close": func(n int) string { return okStatus + "\r\n" + strings.Repeat("a", n) },
		"gzip": func(n int) string {
			return okStatus + "Content-Encoding: gzip\r\n\r\n" + gzipped(strings.Repeat("a", n))
		},
	}
	for name, body := range bodies {
		data := limit
		if name == "chunked" {
			data = limit - 11
		}
		if got := parsePieces("GET", lim, oneRead(body(limit))); got.err != nil || len(got.resp.Body) != data {
			t.Errorf("%s: a body of exactly the limit: err %v", name, got.err)
		}
		if got := parsePieces("GET", lim, oneRead(body(limit+1))); !errors.Is(got.err, http1.ErrBodyTooLarge) {
			t.Errorf("%s: a body one byte over the limit: err %v", name, got.err)
		}
	}

	head := func(n int) string { // a head of exactly n bytes
		h := okStatus + "X: \r\n\r\n"
		return okStatus + "X: " + strings.Repeat("a", n-len(h)) + "\r\n\r\n"
	}
	if got := parsePieces("HEAD", lim, oneRead(head(limit))); got.err != nil {
		t.Errorf("a head of exactly the limit: %v", got.err)
	}
	if got := parsePieces("HEAD", lim, oneRead(head(limit+1))); !errors.Is(got.err, http1.ErrHeaderTooLarge) {
		t.Errorf("a head one byte over the limit: %v", got.err)
	}
}

// A chunk size line may be 4096 bytes long, its CR included, and no
// more, whether it comes in one read or one byte at a time.
func TestAChunkSizeLineIsReadUpToItsBoundInclusive(t *testing.T) {
	t.Parallel()
	body := func(lineLen int) string { // a chunk size line of lineLen bytes before its LF
		return okStatus + "Transfer-Encoding: chunked\r\n\r\n" +
			"1;" + strings.Repeat("e", lineLen-len("1;\r")) + "\r\nx\r\n0\r\n\r\n"
	}
	for how, split := range map[string]func(string) [][]byte{"whole": oneRead, "bytewise": bytewise} {
		if got := parsePieces("GET", http1.Limits{}, split(body(4096))); got.err != nil || string(got.resp.Body) != "x" {
			t.Errorf("%s: a line of exactly 4096 bytes: %s, %v", how, describe(got.resp), got.err)
		}
		if got := parsePieces("GET", http1.Limits{}, split(body(4097))); !errors.Is(got.err, http1.ErrProtocol) {
			t.Errorf("%s: a line of 4097 bytes: %v, want ErrProtocol", how, got.err)
		}
	}
}

// The field count is inclusive too, for the head and the trailers alike,
// and a field continued on the next line (obs-fold) is one field.
func TestFieldCountLimitIsInclusive(t *testing.T) {
	fields := func(n int) string { return strings.Repeat("A: b\r\n", n) }
	for name, limit := range map[string]int{"default": http1.DefaultMaxHeaderFields, "set": 5} {
		lim := http1.Limits{}
		if name == "set" {
			lim.MaxHeaderFields = limit
		}
		for _, where := range []string{"head", "trailer"} {
			in := func(n int) string {
				if where == "head" {
					return okStatus + fields(n) + "Content-Length: 0\r\n\r\n"
				}
				return okStatus + "Transfer-Encoding: chunked\r\n\r\n0\r\n" + fields(n) + "\r\n"
			}
			// The head's framing field is one of its fields.
			n := limit
			if where == "head" {
				n--
			}
			got := parsePieces("GET", lim, oneRead(in(n)))
			if got.err != nil {
				t.Errorf("%s limit, %s: exactly %d fields: %v", name, where, limit, got.err)
			}
			if got := parsePieces("GET", lim, oneRead(in(n+1))); !errors.Is(got.err, http1.ErrHeaderTooLarge) {
				t.Errorf("%s limit, %s: %d fields: %v, want ErrHeaderTooLarge", name, where, limit+1, got.err)
			}
		}
	}
	folded := okStatus + "A: 1\r\n  more\r\n  and more\r\nContent-Length: 0\r\n\r\n"
	if got := parsePieces("GET", http1.Limits{MaxHeaderFields: 2}, oneRead(folded)); got.err != nil || got.resp.Header.Get("A") != "1 more and more" {
		t.Errorf("two fields over four lines, limit 2: %v", got.err)
	}
}

// Told to truncate, a parser cuts a chunked body whose framing alone (a
// chunk extension that goes on and on) passes the limit, as it cuts one
// whose data does: what came before is kept, and the response is marked.
func TestTruncationCountsChunkFraming(t *testing.T) {
	in := okStatus + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n1;" + strings.Repeat("e", 60) + "\r\nx\r\n0\r\n\r\n"
	p := http1.NewParser("GET", http1.Limits{})
	p.LimitBody(40, true)
	if _, err := p.Feed([]byte(in)); err != nil || !p.Done() {
		t.Fatalf("Feed: %v, done %v", err, p.Done())
	}
	if r := p.Response(); !r.Truncated || !r.Close || string(r.Body) != "hello" {
		t.Fatalf("got %s, want the first chunk, marked truncated", describe(r))
	}
}

// A flood of tiny fields costs what the field limit allows, not what the
// byte limit would: 16 000 one-letter fields fit in 64 KiB, and space for
// all of them (half a MiB) is not reserved before the count is checked.
func TestFieldFloodCostsAtMostTheFieldLimit(t *testing.T) {
	flood := okStatus + strings.Repeat("a:\n", 16000) + "\n"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := http1.NewParser("GET", http1.Limits{}).Feed([]byte(flood))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, http1.ErrHeaderTooLarge) {
		t.Fatalf("got %v, want ErrHeaderTooLarge", err)
	}
	// The head itself, twice (the read and the strings), and 256 fields.
	if got := after.TotalAlloc - before.TotalAlloc; got > 256<<10 {
		t.Fatalf("parsing the flood allocated %d KiB", got>>10)
	}
}

// A gzip bomb costs at most the limit: decompression stops one byte past
// it, instead of inflating all of the body and refusing it afterwards.
// 32 MiB of zeros compress to 32 KiB; with a 1 MiB limit the parse may
// allocate a few MiB (the output, the reader's window), not 32.
func TestGzipBombCostsAtMostTheLimit(t *testing.T) {
	bomb := okStatus + "Content-Encoding: gzip\r\n\r\n" + gzipped(strings.Repeat("\x00", 32<<20))
	lim := http1.Limits{MaxBodyBytes: 1 << 20}
	for _, truncate := range []bool{false, true} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		p := http1.NewParser("GET", lim)
		p.LimitBody(0, truncate)
		_, err := p.Feed([]byte(bomb))
		if err == nil {
			err = p.CloseInput()
		}
		runtime.ReadMemStats(&after)
		if truncate != (err == nil) || !truncate && !errors.Is(err, http1.ErrBodyTooLarge) {
			t.Fatalf("truncate %v: %v", truncate, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
			t.Fatalf("truncate %v: parsing the bomb allocated %d MiB", truncate, got>>20)
		}
	}
}
