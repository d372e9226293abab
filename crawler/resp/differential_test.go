package resp_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"loopkit/crawler/resp"
	"loopkit/internal/redistest"
)

// The differential check: the same commands, answered by a real
// redis-server, read three ways — by redis-cli (hiredis's parser, not
// ours), by our Parser from the raw bytes of the reply split every way
// that matters, and by our Client on the loop — must agree on every reply.
// The commands cover every RESP2 type: simple strings, errors (top-level
// and inside arrays), integers (negative, at int64's edges), bulk strings
// (empty, binary, 1 MiB), nil bulk strings and nil arrays, empty and
// nested arrays, and arrays long enough for redis-cli to pad its indices.
func TestDifferentialAgainstRedis(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	if _, err := exec.LookPath("redis-cli"); err != nil {
		t.Skip("redis-cli is not installed: apt-get install redis-tools")
	}
	every := make([]byte, 256)
	for i := range every {
		every[i] = byte(i)
	}
	big := make([]byte, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range big {
		big[i] = byte(r.IntN(256))
	}
	for _, setup := range [][]string{
		{"SET", "small", "hello world"},
		{"SET", "empty", ""},
		{"SET", "binary", string(every)},
		{"SET", "big", string(big)},
		{"SET", "counter", "-9223372036854775807"},
		{"RPUSH", "list", "a", "", "c\r\nd", "e"},
		{"HSET", "hash", "field", "value"},
		{"SADD", "set", "only"},
	} {
		if _, err := srv.RawReply(setup...); err != nil {
			t.Fatal(err)
		}
	}
	commands := [][]string{
		{"PING"},
		{"ECHO", "hello"},
		{"GET", "small"},
		{"GET", "empty"},
		{"GET", "binary"},
		{"GET", "big"},
		{"GET", "missing"},
		{"STRLEN", "big"},
		{"EXISTS", "small", "missing", "small"},
		{"TTL", "missing"},
		{"GET", "counter"},
		{"LRANGE", "list", "0", "-1"},
		{"LRANGE", "missing", "0", "-1"},
		{"HGETALL", "hash"},
		{"SMEMBERS", "set"},
		{"MGET", "small", "missing", "empty"},
		{"BLPOP", "missing", "0.01"}, // times out: a nil array, "*-1"
		{"GET", "list"},              // WRONGTYPE
		{"NOSUCHCOMMAND", "x"},
		{"TYPE", "hash"},
		{"EVAL", "return {1, -2, {3, 'x', {}}, false, {err='E inner'}, {ok='fine'}, 'a\"b\\n\\0'}", "0"},
		{"EVAL", "local t = {} for i = 1, 12 do t[i] = {i, tostring(i)} end return t", "0"},
		{"EVAL", "local t = {} for i = 1, 1000 do t[i] = i * 7 end return t", "0"},
		{"EVAL", "local v = 42 for i = 1, 10 do v = {v} end return v", "0"},
		{"EVAL", "return {}", "0"},
		{"EVAL", "return redis.error_reply('CUSTOM went wrong')", "0"},
		{"EVAL", "return redis.status_reply('ALL GOOD')", "0"},
		{"EVAL", "return 9007199254740993", "0"},
		{"EVAL", "return redis.call('GET', KEYS[1])", "1", "binary"},
	}

	l := newLoop(t)
	client := newClient(t, l, srv.URL(), resp.Options{})
	for _, cmd := range commands {
		name := strings.Join(cmd, " ")
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			out, err := srv.CLI(append([]string{"--no-raw"}, cmd...)...)
			if out == "" {
				t.Fatalf("redis-cli printed nothing: %v", err)
			}
			raw, err := srv.RawReply(cmd...)
			if err != nil {
				t.Fatal(err)
			}
			v := parseEverySplit(t, raw)
			if got := cliRender(v); got != out {
				t.Fatalf("our parser read %q as\n%s\nredis-cli printed\n%s", clipBytes(raw), clipString(got), clipString(out))
			}
			args := make([]any, len(cmd))
			for i, a := range cmd {
				args[i] = a
			}
			cv, err := do(t, l, client, args...)
			if err != nil {
				if serr, ok := err.(*resp.Error); ok {
					cv = resp.Value{Kind: resp.KindError, Str: serr.Msg}
				} else {
					t.Fatalf("client: %v", err)
				}
			}
			if !reflect.DeepEqual(cv, v) {
				t.Fatalf("the client read %v; the parser, from the raw bytes, %v", cv, v)
			}
		})
	}
}

// parseEverySplit parses a reply in one read, then in two reads cut at
// every structural boundary it has (each type byte, line end and the
// start and end of each bulk string, a byte either side) or, for a reply
// under 4 KiB, at every byte; then in reads of 1, 7 and 4096 bytes. Every
// way must give the same value and use every byte.
func parseEverySplit(t *testing.T, raw []byte) resp.Value {
	t.Helper()
	in := string(raw)
	first := parsePieces(resp.Limits{}, oneRead(in))
	if first.err != nil || !first.done || first.used != len(in) {
		t.Fatalf("%q: %v (done %v, used %d of %d)", clipBytes(raw), first.err, first.done, first.used, len(in))
	}
	var cuts []int
	if len(in) < 4096 {
		for i := 1; i < len(in); i++ {
			cuts = append(cuts, i)
		}
	} else {
		for _, b := range boundaries(raw) {
			for _, i := range []int{b - 1, b, b + 1} {
				if i > 0 && i < len(in) {
					cuts = append(cuts, i)
				}
			}
		}
	}
	check := func(how string, pieces [][]byte) {
		got := parsePieces(resp.Limits{}, pieces)
		if got.err != nil || got.used != len(in) || !reflect.DeepEqual(got.v, first.v) {
			t.Fatalf("%s: %v (used %d of %d, err %v); in one read: %v", how, got.v, got.used, len(in), got.err, first.v)
		}
	}
	for _, i := range cuts {
		check("split at "+strconv.Itoa(i), splitAt(in, i))
	}
	for _, size := range []byte{1, 7} {
		check(fmt.Sprintf("reads of %d", size), cutBy(raw, []byte{size}))
	}
	check("reads of 4096", chunks(raw, 4096))
	return first.v
}

func chunks(b []byte, n int) [][]byte {
	var out [][]byte
	for len(b) > n {
		out = append(out, b[:n])
		b = b[n:]
	}
	return append(out, b)
}

// boundaries lists the offsets where a reply's parts begin: each type
// byte, what follows each line, and where each bulk string's data ends.
func boundaries(raw []byte) []int {
	var out []int
	i := 0
	var walk func()
	walk = func() {
		out = append(out, i)
		kind := raw[i]
		end := i + bytes.Index(raw[i:], []byte("\r\n"))
		n, _ := strconv.Atoi(string(raw[i+1 : end]))
		i = end + 2
		out = append(out, i)
		switch {
		case kind == '$' && n >= 0:
			i += n
			out = append(out, i)
			i += 2
		case kind == '*':
			for range max(n, 0) {
				walk()
			}
		}
	}
	walk()
	return out
}

// cliRender prints a value as redis-cli does on a terminal (--no-raw).
func cliRender(v resp.Value) string { return renderAt(v, "") }

func renderAt(v resp.Value, prefix string) string {
	switch v.Kind {
	case resp.KindSimple:
		return v.Str + "\n"
	case resp.KindError:
		return "(error) " + v.Str + "\n"
	case resp.KindInteger:
		return "(integer) " + strconv.FormatInt(v.Int, 10) + "\n"
	case resp.KindNil:
		return "(nil)\n"
	case resp.KindBulk:
		return cliQuote(v.Str) + "\n"
	case resp.KindArray:
		if len(v.Elems) == 0 {
			return "(empty array)\n"
		}
		// Indices are right-aligned to the widest, and an element that is
		// itself an array continues on the index's line, its own lines
		// indented past it.
		width := len(strconv.Itoa(len(v.Elems)))
		inner := prefix + strings.Repeat(" ", width+2)
		var b strings.Builder
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(prefix)
			}
			fmt.Fprintf(&b, "%*d) ", width, i+1)
			b.WriteString(renderAt(e, inner))
		}
		return b.String()
	}
	return "?\n"
}

// cliQuote quotes a bulk string as redis-cli does: printable ASCII as it
// is, the usual escapes, and \xNN for the other bytes.
func cliQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		default:
			if c >= 0x20 && c < 0x7f {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func clipBytes(b []byte) string { return clipString(string(b)) }

func clipString(s string) string {
	if len(s) > 300 {
		return s[:300] + fmt.Sprintf("... (%d bytes)", len(s))
	}
	return s
}
