package resp

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// AppendCommand appends a command to dst as Redis reads it: an array of
// bulk strings, the command's name first.
//
//	AppendCommand(nil, "SET", "k", 42)  →  "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\n42\r\n"
//
// Each argument is a string, a []byte, an integer type or a float64;
// anything else is an error, and nothing is appended. Bulk strings are
// binary-safe: an argument may hold any bytes, CR and LF included, since
// its length is sent before it.
func AppendCommand(dst []byte, args ...any) ([]byte, error) {
	if len(args) == 0 {
		return dst, fmt.Errorf("resp: empty command")
	}
	start := len(dst)
	dst = appendHeader(dst, '*', len(args))
	for i, a := range args {
		var ok bool
		if dst, ok = appendArg(dst, a); !ok {
			return dst[:start], badArg(i, args[0], a)
		}
	}
	return dst, nil
}

// appendArg appends one argument as a bulk string. Numbers are written in
// decimal into a small array on the stack, to learn their length before
// they go out: no allocation for them either.
func appendArg(dst []byte, a any) ([]byte, bool) {
	var num [32]byte
	var s []byte
	switch v := a.(type) {
	case string:
		return appendBulk(dst, v), true
	case []byte:
		dst = appendHeader(dst, '$', len(v))
		return append(append(dst, v...), '\r', '\n'), true
	case int:
		s = strconv.AppendInt(num[:0], int64(v), 10)
	case int64:
		s = strconv.AppendInt(num[:0], v, 10)
	case int32:
		s = strconv.AppendInt(num[:0], int64(v), 10)
	case uint:
		s = strconv.AppendUint(num[:0], uint64(v), 10)
	case uint64:
		s = strconv.AppendUint(num[:0], v, 10)
	case uint32:
		s = strconv.AppendUint(num[:0], uint64(v), 10)
	case float64:
		// 'g' with the shortest exact digits: Redis reads it back with
		// strtold, which takes exponents ("1e+21") and "inf".
		s = strconv.AppendFloat(num[:0], v, 'g', -1, 64)
	default:
		return dst, false
	}
	dst = appendHeader(dst, '$', len(s))
	return append(append(dst, s...), '\r', '\n'), true
}

// badArg says which argument could not be sent. It copies what it shows
// of them, so that the arguments never escape: a caller's numbers and
// strings, boxed into the variadic ...any, can then stay on its stack.
func badArg(i int, name, arg any) error {
	cmd, _ := name.(string)
	return fmt.Errorf("resp: argument %d of %s is a %s; send a string, []byte, integer or float64",
		i, strings.Clone(cmd), reflect.TypeOf(arg))
}

func appendBulk(dst []byte, s string) []byte {
	dst = appendHeader(dst, '$', len(s))
	return append(append(dst, s...), '\r', '\n')
}

// appendHeader appends "*3\r\n" or "$5\r\n".
func appendHeader(dst []byte, kind byte, n int) []byte {
	dst = append(dst, kind)
	dst = strconv.AppendInt(dst, int64(n), 10)
	return append(dst, '\r', '\n')
}
