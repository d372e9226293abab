package resp

import (
	"strconv"
	"strings"
)

// Kind says which of RESP2's five reply types a Value is, or that it is
// nil. The zero Kind is no reply at all: the Value that comes with an error.
type Kind uint8

const (
	KindNone    Kind = iota // no reply: the zero Value
	KindSimple              // "+OK\r\n": a short status text
	KindError               // "-ERR unknown command\r\n": an error reply
	KindInteger             // ":42\r\n"
	KindBulk                // "$5\r\nhello\r\n": a binary-safe string
	KindArray               // "*2\r\n..." followed by its elements
	KindNil                 // "$-1\r\n" or "*-1\r\n": no value (a missing key)
)

var kindNames = [...]string{"no reply", "simple string", "error", "integer", "bulk string", "array", "nil"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one reply, or one element of an array reply. Which fields mean
// something depends on Kind:
//
//	KindSimple, KindError, KindBulk   Str
//	KindInteger                       Int
//	KindArray                         Elems (empty, never nil, for "*0")
//	KindNil, KindNone                 nothing
//
// RESP2 has two nils, "$-1" (a nil bulk string) and "*-1" (a nil array);
// no command gives them different meanings, so both are KindNil, as RESP3
// later made them one type.
//
// A bulk string is binary-safe: Str may hold any bytes. It is a string,
// not a []byte, so that a Value can be shared and kept without copying,
// and so that the parser can hand out the common "OK" and "PONG" without
// allocating.
type Value struct {
	Kind  Kind
	Str   string
	Int   int64
	Elems []Value
}

// IsNil reports whether v is a nil reply.
func (v Value) IsNil() bool { return v.Kind == KindNil }

// Err returns an error reply as an *Error, and nil for any other kind. The
// client turns a top-level error reply into the command's error itself;
// Err is for the error replies inside an array (a script's, or EXEC's).
func (v Value) Err() error {
	if v.Kind != KindError {
		return nil
	}
	return &Error{Msg: v.Str}
}

// String renders v on one line, for messages and logs: OK, (integer) 42,
// "hello" (quoted as Go quotes), (nil), (error) ERR ..., and arrays as
// [a, b]. Long strings and arrays are clipped.
func (v Value) String() string {
	var b strings.Builder
	v.write(&b, 0)
	return b.String()
}

func (v Value) write(b *strings.Builder, depth int) {
	const maxStr, maxElems, maxDepth = 64, 8, 4
	switch v.Kind {
	case KindSimple:
		b.WriteString(clip(v.Str, maxStr))
	case KindError:
		b.WriteString("(error) " + clip(v.Str, maxStr))
	case KindInteger:
		b.WriteString("(integer) " + strconv.FormatInt(v.Int, 10))
	case KindBulk:
		if len(v.Str) > maxStr {
			b.WriteString(strconv.Quote(v.Str[:maxStr]) + "...")
		} else {
			b.WriteString(strconv.Quote(v.Str))
		}
	case KindNil:
		b.WriteString("(nil)")
	case KindArray:
		if depth == maxDepth {
			b.WriteString("[...]")
			return
		}
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i == maxElems {
				b.WriteString(", ... " + strconv.Itoa(len(v.Elems)-maxElems) + " more")
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			e.write(b, depth+1)
		}
		b.WriteByte(']')
	default:
		b.WriteString("(" + v.Kind.String() + ")")
	}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
