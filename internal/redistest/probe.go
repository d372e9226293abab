package redistest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Two ways to ask the server something without the client under test: a
// test that checks the client against the server must not read the
// server through that same client.

// CLI runs redis-cli (from the Debian package redis-tools, which
// redis-server depends on) against the server, logged in, with args —
// options such as --no-raw first, then the command — and returns what it
// printed. Piped, redis-cli prints raw values, one per line.
func (s *Server) CLI(args ...string) (string, error) {
	a := []string{"-h", "127.0.0.1", "-p", strconv.Itoa(s.Port), "--no-auth-warning"}
	switch {
	case s.opts.User != "":
		a = append(a, "--user", s.opts.User, "--pass", s.opts.UserPassword)
	case s.opts.Password != "":
		a = append(a, "-a", s.opts.Password)
	}
	out, err := exec.Command("redis-cli", append(a, args...)...).Output()
	if err != nil {
		return string(out), fmt.Errorf("redis-cli %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}

// RawReply sends one command on a new connection and returns the bytes
// of its reply exactly as the server sent them, found without parsing
// them: the command is followed by an ECHO of a random marker, and the
// reply is everything before the marker's echo.
func (s *Server) RawReply(args ...string) ([]byte, error) {
	c, err := net.DialTimeout("tcp", s.Addr(), 2*time.Second)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))

	var id [16]byte
	rand.Read(id[:])
	marker := "end-of-reply-" + hex.EncodeToString(id[:])
	var req []byte
	prefix := ""
	switch {
	case s.opts.User != "":
		req, prefix = encode(req, "AUTH", s.opts.User, s.opts.UserPassword), "+OK\r\n"
	case s.opts.Password != "":
		req, prefix = encode(req, "AUTH", s.opts.Password), "+OK\r\n"
	}
	req = encode(req, args...)
	req = encode(req, "ECHO", marker)
	if _, err := c.Write(req); err != nil {
		return nil, err
	}
	echo := []byte(fmt.Sprintf("$%d\r\n%s\r\n", len(marker), marker))
	var got []byte
	buf := make([]byte, 64<<10)
	for !bytes.HasSuffix(got, echo) {
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		if err == io.EOF && bytes.HasSuffix(got, echo) {
			break
		}
		if err != nil {
			return got, fmt.Errorf("reading the reply to %s: %w (got %d bytes)", args[0], err, len(got))
		}
	}
	if !bytes.HasPrefix(got, []byte(prefix)) {
		return got, fmt.Errorf("AUTH answered %q", got[:min(len(got), 40)])
	}
	return got[len(prefix) : len(got)-len(echo)], nil
}

// encode writes a command as Redis reads it, an array of bulk strings.
func encode(dst []byte, args ...string) []byte {
	dst = fmt.Appendf(dst, "*%d\r\n", len(args))
	for _, a := range args {
		dst = fmt.Appendf(dst, "$%d\r\n%s\r\n", len(a), a)
	}
	return dst
}
