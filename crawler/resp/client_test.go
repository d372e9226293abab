package resp_test

import (
	"bufio"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler/resp"
	"loopkit/future"
	"loopkit/internal/redistest"
	"loopkit/task"
)

// The basic round trip: a command goes out, its reply comes back as a
// Value of the right kind, and the server really holds what was written.
func TestSetThenGet(t *testing.T) {
	srv, l, c := withServer(t, redistest.Options{}, resp.Options{})
	v, err := do(t, l, c, "SET", "greeting", "hello")
	if err != nil || v.Kind != resp.KindSimple || v.Str != "OK" {
		t.Fatalf("SET: %v, %v", v, err)
	}
	if got := cli(t, srv, "GET", "greeting"); got != "hello" {
		t.Fatalf("the server holds %q", got)
	}
	v, err = do(t, l, c, "GET", "greeting")
	if err != nil || v.Kind != resp.KindBulk || v.Str != "hello" {
		t.Fatalf("GET: %v, %v", v, err)
	}
	v, err = do(t, l, c, "GET", "no such key")
	if err != nil || !v.IsNil() {
		t.Fatalf("GET of a missing key: %v, %v", v, err)
	}
	_, err = do(t, l, c, "NOSUCHCOMMAND")
	var serr *resp.Error
	if !errors.As(err, &serr) || serr.Code() != "ERR" || !strings.Contains(err.Error(), "unknown command") {
		t.Fatalf("an unknown command: %v", err)
	}
	// An error reply fails one command, not the connection.
	if v, err := do(t, l, c, "PING"); err != nil || v.Str != "PONG" {
		t.Fatalf("PING after an error reply: %v, %v", v, err)
	}
	// Five commands, five replies (the error reply among them); the
	// connection's own PING, its login, is not the caller's command.
	if s := c.Stats(); s.Connects != 1 || s.Lost != 0 || s.Commands != 5 || s.Replies != 5 {
		t.Fatalf("stats %+v: one connection, never lost, 5 commands and 5 replies", s)
	}
}

// Commands given in one turn of the loop leave in one write and are
// answered in order, each future with its own reply. The server's own
// count of reads says how many writes it took.
func TestCommandsOfOneTurnArePipelined(t *testing.T) {
	srv, l, c := withServer(t, redistest.Options{}, resp.Options{})
	if _, err := do(t, l, c, "PING"); err != nil { // connected and idle
		t.Fatal(err)
	}
	readsBefore := serverReads(t, srv)
	const n = 200
	futures := make([]*future.Future[resp.Value], n)
	for i := range futures {
		futures[i] = c.Send("INCR", "counter")
	}
	await(t, l, futures[n-1])
	for i, f := range futures {
		if v, err := f.Result(); err != nil || v.Kind != resp.KindInteger || v.Int != int64(i+1) {
			t.Fatalf("command %d got %v, %v; want (integer) %d: replies must come in order", i, v, err, i+1)
		}
	}
	// redis-cli's INFO costs a read or two of its own; 200 commands sent
	// one by one would cost 200.
	if reads := serverReads(t, srv) - readsBefore; reads > 6 {
		t.Fatalf("the server made %d reads for %d commands of one turn: not pipelined", reads, n)
	}
}

// serverReads is the server's count of reads from its clients.
func serverReads(t *testing.T, srv *redistest.Server) int {
	t.Helper()
	for _, line := range strings.Split(cli(t, srv, "INFO", "stats"), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "total_reads_processed:"); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	t.Fatal("INFO stats has no total_reads_processed")
	return 0
}

// From a task: Do, and several Sends awaited afterwards, which pipeline.
func TestDoFromATask(t *testing.T) {
	_, l, c := withServer(t, redistest.Options{}, resp.Options{})
	got, err := task.Run(l, func(y task.Yield) ([]string, error) {
		if _, err := c.Do(y, "RPUSH", "queue", "a", "b", "c"); err != nil {
			return nil, err
		}
		first, second := c.Send("LPOP", "queue"), c.Send("LLEN", "queue")
		a, err := resp.String(task.Await(y, first))
		if err != nil {
			return nil, err
		}
		n, err := resp.Int(task.Await(y, second))
		if err != nil {
			return nil, err
		}
		rest, err := resp.Strings(c.Do(y, "LRANGE", "queue", 0, -1))
		return append([]string{a, strconv.FormatInt(n, 10)}, rest...), err
	})
	if err != nil || strings.Join(got, " ") != "a 2 b c" {
		t.Fatalf("got %q, %v", got, err)
	}
}

// The password and the database come from the URL, for the default user
// and for an ACL user, and for database 1 (the first that is not the
// default) as for any other; commands given while the client logs in wait
// for it, and run in the right database.
func TestLoginFromTheURL(t *testing.T) {
	for i, opts := range []redistest.Options{{Password: "s3cret"}, {User: "crawler", UserPassword: "p4ss"}} {
		db := strconv.Itoa([]int{1, 3}[i])
		srv := redistest.Start(t, opts)
		l := newLoop(t)
		c := newClient(t, l, srv.URLForDB([]int{1, 3}[i]), resp.Options{})
		if v, err := do(t, l, c, "SET", "where", "db"+db); err != nil || v.Str != "OK" {
			t.Fatalf("%+v: SET: %v, %v", opts, v, err)
		}
		if got := cli(t, srv, "-n", db, "GET", "where"); got != "db"+db {
			t.Fatalf("%+v: database %s holds %q", opts, db, got)
		}
		if got := cli(t, srv, "-n", "0", "EXISTS", "where"); got != "0" {
			t.Fatalf("%+v: the key went to database 0 too", opts)
		}
		whoami, err := resp.String(do(t, l, c, "ACL", "WHOAMI"))
		want := opts.User
		if want == "" {
			want = "default"
		}
		if err != nil || whoami != want {
			t.Fatalf("logged in as %q (%v), want %q", whoami, err, want)
		}
	}
}

// A wrong password fails the commands waiting for the connection with
// ErrNotConnected (they never left), saying what the server said.
func TestWrongPassword(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{Password: "right"})
	l := newLoop(t)
	c := newClient(t, l, strings.Replace(srv.URL(), "right", "wrong", 1), resp.Options{})
	_, err := do(t, l, c, "PING")
	var serr *resp.Error
	if !errors.Is(err, resp.ErrNotConnected) || !errors.As(err, &serr) || serr.Code() != "WRONGPASS" || !strings.Contains(err.Error(), "AUTH") {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(err.Error(), "wrong") && !strings.Contains(err.Error(), "WRONGPASS") {
		t.Fatalf("the error shows the password: %v", err)
	}
}

// A server that is not Redis, and answers +OK to everything, fails the
// login at its PING, which wants PONG: the commands waiting for the
// connection fail with ErrNotConnected and a protocol error, and never
// reach it. (No Redis answers a login step wrongly, so this server is a
// listener of the test's own, on 127.0.0.1.)
func TestALoginAnsweredWronglyFails(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var commands atomic.Int32
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				r := bufio.NewReader(conn)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if strings.HasPrefix(line, "*") { // a command begins
						commands.Add(1)
						conn.Write([]byte("+OK\r\n"))
					}
				}
			}()
		}
	}()
	l := newLoop(t)
	c := newClient(t, l, "redis://"+ln.Addr().String()+"/0", resp.Options{MinBackoff: time.Minute, MaxBackoff: time.Minute})
	_, err = do(t, l, c, "SET", "k", "v")
	if !errors.Is(err, resp.ErrNotConnected) || !errors.Is(err, resp.ErrProtocol) || !strings.Contains(err.Error(), "PING") {
		t.Fatalf("got %v; want not connected: a protocol error at the PING", err)
	}
	if n := commands.Load(); n != 1 {
		t.Fatalf("the server got %d commands, want 1: the PING alone", n)
	}
}

// The caller's commands wait for the whole login, not only for the TCP
// connection: pipelined behind a SELECT that fails, a SET would run in
// database 0.
func TestCommandsWaitForTheLogin(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	l := newLoop(t)
	c := newClient(t, l, srv.URLForDB(99), resp.Options{}) // there are 16 databases
	_, err := do(t, l, c, "SET", "misplaced", "x")
	var serr *resp.Error
	if !errors.Is(err, resp.ErrNotConnected) || !errors.As(err, &serr) || !strings.Contains(err.Error(), "SELECT 99") {
		t.Fatalf("got %v; want the SELECT's error, not connected", err)
	}
	if got := cli(t, srv, "EXISTS", "misplaced"); got != "0" {
		t.Fatal("the SET ran in database 0")
	}
}

// Commands that would break a shared, reconnecting, pipelined connection
// are refused before they are sent, whatever their case.
func TestCommandsThatWouldBreakTheConnectionAreRefused(t *testing.T) {
	srv, l, c := withServer(t, redistest.Options{}, resp.Options{})
	for _, name := range []string{"SUBSCRIBE", "psubscribe", "Monitor", "SELECT", "auth", "HELLO", "RESET"} {
		_, err := do(t, l, c, name, "x")
		if err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("%s: %v", name, err)
		}
		// A command's name may come as bytes, as any argument may.
		if _, err := do(t, l, c, []byte(name), "x"); err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("%s as []byte: %v", name, err)
		}
	}
	// The server never saw them: its command statistics, which count
	// even failed calls, have none of them.
	stats := strings.ToLower(cli(t, srv, "INFO", "commandstats"))
	for _, name := range []string{"subscribe", "monitor", "select", "auth", "hello", "reset"} {
		if strings.Contains(stats, "cmdstat_"+name+":") {
			t.Errorf("the server received %s:\n%s", name, stats)
		}
	}
	if v, err := do(t, l, c, "PING"); err != nil || v.Str != "PONG" {
		t.Fatalf("after the refusals: %v, %v", v, err)
	}
}

// A command larger than the socket takes at once (a SET of 32 MiB) goes
// out whole, in as many writes as it takes, the loop calling the writer
// back whenever the socket has room again: the server holds every byte of
// it (its SHA1, computed by the server, is the value's), and the
// connection is still in step after it.
func TestACommandLargerThanTheSocketGoesOutWhole(t *testing.T) {
	_, l, c := withServer(t, redistest.Options{}, resp.Options{ReplyTimeout: 10 * time.Second})
	big := make([]byte, 32<<20)
	for i := 0; i+8 <= len(big); i += 8 {
		binary.BigEndian.PutUint64(big[i:], uint64(i)) // every position says where it is
	}
	if v, err := do(t, l, c, "SET", "big", big); err != nil || v.Str != "OK" {
		t.Fatalf("SET of 32 MiB: %v, %v", v, err)
	}
	sum, err := resp.String(do(t, l, c, "EVAL", "return redis.sha1hex(redis.call('GET', KEYS[1]))", 1, "big"))
	if want := fmt.Sprintf("%x", sha1.Sum(big)); err != nil || sum != want {
		t.Fatalf("the server's SHA1 of the value: %q, %v; want %s", sum, err, want)
	}
	if v, err := do(t, l, c, "PING"); err != nil || v.Str != "PONG" {
		t.Fatalf("PING after it: %v, %v", v, err)
	}
}

// A cancelled command's reply is still read, and dropped: the replies
// after it still reach their own commands.
func TestCancelledCommandKeepsTheConnectionInStep(t *testing.T) {
	_, l, c := withServer(t, redistest.Options{}, resp.Options{})
	first := c.Send("ECHO", "first")
	second := c.Send("ECHO", "second")
	first.Cancel()
	v, err := await(t, l, second)
	if err != nil || v.Str != "second" {
		t.Fatalf("the command after a cancelled one got %v, %v", v, err)
	}
	if s := c.Stats(); s.Replies != 2 || s.Lost != 0 {
		t.Fatalf("stats %+v: both replies read, nothing lost", s)
	}
}

// The helpers read the reply kind a command is known to give, and say
// so when it is another.
func TestReplyHelpers(t *testing.T) {
	_, l, c := withServer(t, redistest.Options{}, resp.Options{})
	do(t, l, c, "SET", "n", 41)
	do(t, l, c, "RPUSH", "l", "x", "y")
	if n, err := resp.Int(do(t, l, c, "INCR", "n")); err != nil || n != 42 {
		t.Errorf("Int of INCR: %d, %v", n, err)
	}
	if n, err := resp.Int(do(t, l, c, "GET", "n")); err != nil || n != 42 {
		t.Errorf("Int of a counter read with GET: %d, %v", n, err)
	}
	if _, err := resp.String(do(t, l, c, "GET", "missing")); !errors.Is(err, resp.ErrNil) {
		t.Errorf("String of a missing key: %v, want ErrNil", err)
	}
	if n, err := resp.Int(do(t, l, c, "GET", "missing")); !errors.Is(err, resp.ErrNil) {
		t.Errorf("Int of a missing key: %d, %v; want ErrNil, not a zero", n, err)
	}
	if _, err := resp.Int(do(t, l, c, "LRANGE", "l", 0, -1)); !errors.Is(err, resp.ErrWrongKind) {
		t.Errorf("Int of an array: %v, want ErrWrongKind", err)
	}
	if _, err := resp.Strings(do(t, l, c, "MGET", "n", "missing")); !errors.Is(err, resp.ErrNil) || !strings.Contains(err.Error(), "element 1") {
		t.Errorf("Strings with a nil element: %v", err)
	}
	if elems, err := resp.Array(do(t, l, c, "MGET", "n", "missing")); err != nil || len(elems) != 2 || !elems[1].IsNil() {
		t.Errorf("Array of MGET: %v, %v", elems, err)
	}
	var serr *resp.Error
	if _, err := resp.Int(do(t, l, c, "INCR", "l")); !errors.As(err, &serr) || serr.Code() != "WRONGTYPE" {
		t.Errorf("an error reply passes through the helper: %v", err)
	}
}

// Commands given in one turn go out on one connection, even while the
// client is still connecting: a MULTI ... EXEC given together is never
// split across a reconnection, where its middle would run outside the
// transaction.
func TestTransactionGivenInOneTurn(t *testing.T) {
	for _, when := range []string{"while connecting", "once connected"} {
		_, l, c := withServer(t, redistest.Options{}, resp.Options{})
		if when == "once connected" {
			if _, err := do(t, l, c, "PING"); err != nil {
				t.Fatal(err)
			}
		}
		c.Send("MULTI")
		queued := c.Send("INCR", "x")
		c.Send("INCR", "x")
		exec := c.Send("EXEC")
		v, err := await(t, l, exec)
		if err != nil || v.String() != "[(integer) 1, (integer) 2]" {
			t.Fatalf("%s: EXEC: %v, %v", when, v, err)
		}
		if q, _ := queued.Result(); q.Str != "QUEUED" {
			t.Fatalf("%s: INCR inside MULTI: %v", when, q)
		}
	}
}
