package resp

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"strconv"

	"loopkit/future"
	"loopkit/task"
)

// Script is a Lua script that Redis runs atomically: no other command
// runs while it does. That is what a check-then-write needs — "renew the
// lease if I still hold it", "push this URL unless it was seen" — which
// two separate commands cannot do, because another client's command may
// come between them.
//
// A script is sent by its SHA1 (EVALSHA), so its text crosses the wire
// only when the server does not know it yet: then the server answers
// NOSCRIPT, which means the script did not run, and it is sent again
// whole (EVAL), which runs it and teaches the server its SHA1.
//
// Beware one consequence on a pipelined connection: a script the server
// did not know runs after the commands sent behind it, since its EVAL
// leaves only when the NOSCRIPT comes back. Await a script's reply before
// sending what must follow it, or give the script to Options.Scripts,
// which loads it on every new connection before any command is sent.
type Script struct {
	src, sha string
	// The command's first two arguments, encoded once: EVALSHA and the
	// SHA1, or EVAL and the source.
	evalsha, eval []byte
}

// NewScript returns a script of the Lua source src.
func NewScript(src string) *Script {
	sum := sha1.Sum([]byte(src))
	s := &Script{src: src, sha: hex.EncodeToString(sum[:])}
	s.evalsha = appendBulk(appendBulk(nil, "EVALSHA"), s.sha)
	s.eval = appendBulk(appendBulk(nil, "EVAL"), s.src)
	return s
}

// SHA is the script's SHA1 in hex, its name in Redis's script cache.
func (s *Script) SHA() string { return s.sha }

// Send runs the script with keys (KEYS[1], ... in Lua) and args (ARGV[1],
// ...) and returns a future of its reply. Redis wants every key a script
// touches named in keys, so that a cluster can tell where it runs.
func (s *Script) Send(c *Client, keys []string, args ...any) *future.Future[Value] {
	// The rest of the command, the same for EVALSHA and EVAL, is encoded
	// once and kept for the second if it is needed.
	tail := appendBulk(nil, strconv.Itoa(len(keys)))
	for _, k := range keys {
		tail = appendBulk(tail, k)
	}
	for i, a := range args {
		var ok bool
		if tail, ok = appendArg(tail, a); !ok {
			f := future.New[Value](c.loop)
			f.SetError(badArg(3+len(keys)+i, "EVALSHA", a))
			return f
		}
	}
	n := 3 + len(keys) + len(args)
	result := future.New[Value](c.loop)
	first := sendScript(c, n, s.evalsha, tail)
	first.OnDone(func() {
		var serr *Error
		if errors.As(first.Err(), &serr) && serr.Code() == "NOSCRIPT" {
			second := sendScript(c, n, s.eval, tail)
			second.OnDone(func() { settle(result, second) })
			return
		}
		settle(result, first)
	})
	return result
}

// Run is Send from inside a task.
func (s *Script) Run(y task.Yield, c *Client, keys []string, args ...any) (Value, error) {
	return task.Await(y, s.Send(c, keys, args...))
}

func sendScript(c *Client, n int, head, tail []byte) *future.Future[Value] {
	var buf [24]byte
	return c.sendEncoded(appendHeader(buf[:0], '*', n), head, tail)
}

// settle completes result as src completed, unless its caller gave up on it.
func settle(result, src *future.Future[Value]) {
	if result.Done() {
		return
	}
	if v, err := src.Result(); err != nil {
		result.SetError(err)
	} else {
		result.SetResult(v)
	}
}
