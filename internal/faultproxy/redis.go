package faultproxy

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"sync"

	"loopkit/crawler/resp"
)

// Replies is a Rule for a proxy in front of Redis: it reads the commands
// each connection carries and the replies that come back — RESP matches
// them by order alone — and breaks the replies to the commands it is
// told to, a chosen number of bytes into each. So a test can lose the
// reply to a script after Redis ran it: the one fault a client cannot
// tell from a command never sent.
type Replies struct {
	// Match picks the commands whose replies are broken, from their words
	// (EVALSHA and a script's SHA1, say).
	Match func(cmd []string) bool
	// Faults are for the matching replies in the order they come, over
	// every connection: the first matching reply meets Faults[0], and so
	// on; a nil entry lets that reply through. Each fault's At counts
	// from the first byte of its reply; a negative At counts back from
	// its end (-1: every byte but the last).
	Faults []*Fault

	mu      sync.Mutex
	conns   map[int]*replyConn
	matched int // matching replies seen so far
	fired   []ReplyFired
}

// ReplyFired says where a fault of Replies fired.
type ReplyFired struct {
	Conn  int
	Cmd   []string
	Len   int   // the reply's length in bytes
	At    int64 // the fault's offset in the reply
	Fault Fault
}

// replyConn is what Replies knows of one connection.
type replyConn struct {
	cmds    *resp.Parser
	replies *resp.Parser
	waiting [][]string // the commands whose replies have not come, in order
	start   int64      // the offset of the reply being read, down
	fed     int64      // how many of its bytes the parser has had
}

// Fired lists the faults that fired so far.
func (r *Replies) Fired() []ReplyFired {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ReplyFired(nil), r.fired...)
}

func (r *Replies) conn(n int) *replyConn {
	if r.conns == nil {
		r.conns = map[int]*replyConn{}
	}
	c := r.conns[n]
	if c == nil {
		c = &replyConn{cmds: resp.NewParser(resp.Limits{}), replies: resp.NewParser(resp.Limits{})}
		r.conns[n] = c
	}
	return c
}

// Chunk is Rule's: commands are read as they go up and always pass;
// replies are read as they come down, and a reply with a fault is held
// until it is whole, so that a fault may be placed from its end.
func (r *Replies) Chunk(n int, dir Dir, off int64, b []byte) (int, *Fault) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.conn(n)
	if dir == Up {
		for rest := b; len(rest) > 0; {
			k, err := c.cmds.Feed(rest)
			if err != nil {
				return len(b), nil // not RESP: leave it alone
			}
			rest = rest[k:]
			if c.cmds.Done() {
				c.waiting = append(c.waiting, words(c.cmds.Reply()))
				c.cmds.Reset()
			}
		}
		return len(b), nil
	}
	// b starts at off, at or before the first byte of the reply being
	// read that the parser has not had yet.
	for {
		rest := b[c.start+c.fed-off:]
		if len(rest) == 0 {
			return len(b), nil
		}
		k, err := c.replies.Feed(rest)
		if err != nil {
			return len(b), nil // not RESP: leave it alone
		}
		c.fed += int64(k)
		if !c.replies.Done() {
			if len(c.waiting) > 0 && r.faultFor(c.waiting[0], false) != nil {
				return int(c.start - off), nil // held until it is whole
			}
			return len(b), nil
		}
		c.replies.Reset()
		replyStart, length := c.start, c.fed
		c.start, c.fed = c.start+c.fed, 0
		if len(c.waiting) == 0 {
			continue // a reply to no command: not ours to judge
		}
		cmd := c.waiting[0]
		c.waiting = c.waiting[1:]
		f := r.faultFor(cmd, true)
		if f == nil {
			continue
		}
		at := f.At
		if at < 0 {
			at += length
		}
		at = min(max(at, 0), length-1)
		fired := *f
		fired.Dir, fired.At = Down, replyStart+at
		r.fired = append(r.fired, ReplyFired{Conn: n, Cmd: cmd, Len: int(length), At: at, Fault: fired})
		return int(fired.At - off), &fired
	}
}

// faultFor is the fault for the reply to cmd, if it matches and has one;
// take counts it as seen.
func (r *Replies) faultFor(cmd []string, take bool) *Fault {
	if r.Match == nil || !r.Match(cmd) {
		return nil
	}
	var f *Fault
	if r.matched < len(r.Faults) {
		f = r.Faults[r.matched]
	}
	if take {
		r.matched++
	}
	return f
}

// words are a command's arguments, as strings.
func words(v resp.Value) []string {
	var out []string
	for _, e := range v.Elems {
		out = append(out, e.Str)
	}
	return out
}

// Script matches the commands that run the script whose SHA1 is sha:
// EVALSHA with it, or EVAL with a source of that SHA1.
func Script(sha string) func(cmd []string) bool {
	return func(cmd []string) bool {
		switch {
		case len(cmd) < 2:
			return false
		case strings.EqualFold(cmd[0], "EVALSHA"):
			return cmd[1] == sha
		case strings.EqualFold(cmd[0], "EVAL"):
			sum := sha1.Sum([]byte(cmd[1]))
			return hex.EncodeToString(sum[:]) == sha
		}
		return false
	}
}
