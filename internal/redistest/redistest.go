// Package redistest starts a real redis-server for tests: on 127.0.0.1, on
// a free port, in a temporary directory, and stops it when the test ends.
// Tests that need Redis get the real thing, never a mock: a mock answers
// as its author believes Redis answers.
//
// Where redis-server is not installed, Start skips the test with one line
// naming the Debian package to install — unless LOOPKIT_REDIS_REQUIRED is
// set (CI sets it), and then the test fails: a suite that silently skipped
// its Redis tests would prove nothing.
//
// A test can stop the server and start it again on the same directory
// and port (Stop, Kill, Restart), and freeze it (Pause, Resume): what a
// crawl on a shared Redis must survive.
package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Options configure a server. The zero value is a server that keeps its
// data in memory only.
type Options struct {
	// AppendOnly turns on the append-only file with fsync always: every
	// write is on disk before it is answered, so a server killed and
	// restarted on the same Dir has lost no acknowledged write.
	AppendOnly bool
	// Password is required of the default user (requirepass).
	Password string
	// User and UserPassword add an ACL user with every permission, for
	// AUTH user password.
	User, UserPassword string
}

// Server is a redis-server process started by a test.
type Server struct {
	Port int
	Dir  string // its working directory: the append-only file, redis.log
	opts Options
	t    testing.TB
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
}

// Binary is the program Start runs.
const Binary = "redis-server"

// Start starts a server and waits until it answers PING. The test is
// skipped (or failed, under LOOPKIT_REDIS_REQUIRED) if redis-server is not
// installed. The server is killed when the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	if _, err := exec.LookPath(Binary); err != nil {
		msg := "redis-server is not installed: apt-get install redis-server (Debian package redis-server)"
		if os.Getenv("LOOPKIT_REDIS_REQUIRED") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	s := &Server{Dir: t.TempDir(), opts: opts, t: t}
	t.Cleanup(s.cleanup)
	// A free port is found by binding port 0 and closing it; another
	// process may take it before the server binds it, so a failed start
	// is tried again on another port.
	var err error
	for range 3 {
		if s.Port, err = freePort(); err != nil {
			break
		}
		if err = s.start(); err == nil {
			return s
		}
	}
	t.Fatalf("redistest: %v", err)
	return nil
}

// Addr is 127.0.0.1:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.Port) }

// URL is the server's redis:// URL for database 0, with the password if
// the server wants one.
func (s *Server) URL() string { return s.URLForDB(0) }

// URLForDB is the server's redis:// URL for database db.
func (s *Server) URLForDB(db int) string {
	auth := ""
	switch {
	case s.opts.User != "":
		auth = s.opts.User + ":" + s.opts.UserPassword + "@"
	case s.opts.Password != "":
		auth = ":" + s.opts.Password + "@"
	}
	return fmt.Sprintf("redis://%s%s/%d", auth, s.Addr(), db)
}

func (s *Server) args() []string {
	a := []string{
		"--port", strconv.Itoa(s.Port),
		"--bind", "127.0.0.1",
		"--dir", s.Dir,
		"--logfile", filepath.Join(s.Dir, "redis.log"),
		"--daemonize", "no",
		"--save", "", // no RDB snapshots: the append-only file, or nothing
		// DEBUG SLEEP makes a slow server on demand, for timeout tests.
		"--enable-debug-command", "local",
	}
	if s.opts.AppendOnly {
		a = append(a, "--appendonly", "yes", "--appendfsync", "always")
	}
	if s.opts.Password != "" {
		a = append(a, "--requirepass", s.opts.Password)
	}
	if s.opts.User != "" {
		a = append(a, "--user", s.opts.User, "on", ">"+s.opts.UserPassword, "~*", "&*", "+@all")
	}
	return a
}

// start runs the process and waits until it answers.
func (s *Server) start() error {
	cmd := exec.Command(Binary, s.args()...)
	cmd.Dir = s.Dir
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	s.cmd, s.done = cmd, done
	deadline := time.Now().Add(15 * time.Second)
	for {
		err := s.ping()
		if err == nil {
			return nil
		}
		if errors.Is(err, errNotOurs) {
			s.Kill()
			return fmt.Errorf("port %d: %w", s.Port, err)
		}
		select {
		case <-done:
			return fmt.Errorf("redis-server on port %d exited at start: %v\n%s", s.Port, cmd.ProcessState, s.Log())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Kill()
			return fmt.Errorf("redis-server on port %d did not answer PING in 15s: %v\n%s", s.Port, err, s.Log())
		}
	}
}

// ping sends PING (after AUTH, if the server wants it) on a new
// connection and wants +PONG: a server still loading its data answers
// -LOADING, and is not ready yet. Then it asks the server its process id:
// another test's server may have bound the port first (the port was free
// when picked), and a PONG from it would hand this test a server that
// the other test stops under it.
func (s *Server) ping() error {
	c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	cmd := "PING\r\n"
	switch {
	case s.opts.User != "":
		cmd = "AUTH " + s.opts.User + " " + s.opts.UserPassword + "\r\n" + cmd
	case s.opts.Password != "":
		cmd = "AUTH " + s.opts.Password + "\r\n" + cmd
	}
	if _, err := c.Write([]byte(cmd)); err != nil {
		return err
	}
	r := bufio.NewReader(c)
	for range strings.Count(cmd, "\r\n") {
		line, err := r.ReadString('\n')
		if err != nil {
			return err
		}
		if line != "+OK\r\n" && line != "+PONG\r\n" {
			return fmt.Errorf("answered %q", line)
		}
	}
	if _, err := c.Write([]byte("INFO server\r\n")); err != nil {
		return err
	}
	size, err := r.ReadString('\n')
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(size, "$")))
	if err != nil {
		return fmt.Errorf("INFO answered %q", size)
	}
	info := make([]byte, n+2)
	if _, err := io.ReadFull(r, info); err != nil {
		return err
	}
	if want := fmt.Sprintf("process_id:%d\r\n", s.cmd.Process.Pid); !strings.Contains(string(info), want) {
		return errNotOurs
	}
	return nil
}

// errNotOurs: the port answers, but another process's server answers it.
var errNotOurs = errors.New("another redis-server answers on this port")

// Running reports whether the process is alive (paused counts as alive).
func (s *Server) Running() bool {
	if s.done == nil {
		return false
	}
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// Stop shuts the server down cleanly (SIGTERM: it finishes its
// append-only file) and waits for it to exit.
func (s *Server) Stop() { s.signal(syscall.SIGTERM) }

// Kill kills the server (SIGKILL: a crash, or a power cut for what was
// not yet on disk) and waits for it to exit.
func (s *Server) Kill() { s.signal(syscall.SIGKILL) }

func (s *Server) signal(sig syscall.Signal) {
	if !s.Running() {
		return
	}
	s.cmd.Process.Signal(syscall.SIGCONT) // a paused server cannot act on SIGTERM
	s.cmd.Process.Signal(sig)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		s.t.Errorf("redistest: redis-server on port %d ignored %v for 20s; killed", s.Port, sig)
	}
}

// Restart starts the server again on the same port and directory (after
// Stop or Kill; a running server is stopped first) and waits until it
// answers: with AppendOnly it has its data back.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	// The port was ours a moment ago; only a process that grabbed it
	// meanwhile keeps it from us, so try a few times before failing.
	var err error
	for range 20 {
		if err = s.start(); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("redistest: restart: %v", err)
}

// Pause freezes the server (SIGSTOP): the kernel still accepts
// connections and takes the bytes sent to it, and nothing answers — a
// hung server, as a client sees one.
func (s *Server) Pause() { s.cmd.Process.Signal(syscall.SIGSTOP) }

// Resume wakes a paused server (SIGCONT).
func (s *Server) Resume() { s.cmd.Process.Signal(syscall.SIGCONT) }

// Log is the server's log file.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "redis.log"))
	return string(b)
}

func (s *Server) cleanup() { s.Kill() }

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
