package http1_test

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"loopkit/internal/testca"
	"loopkit/internal/waiting"
)

// TestMain lets the test binary double as a server process: with
// LOOPKIT_HTTP1_SERVE set it serves on 127.0.0.1 until its stdin closes.
// Ten thousand connections need twenty thousand descriptors when client
// and server share a process, more than the usual limit; in two processes
// each side needs ten thousand. Benchmarks use it too, so that the
// server's CPU is not counted as the client's.
//
// The package's slow tests wait on timeouts, so more of them run at once
// than go test's default of one per processor.
func TestMain(m *testing.M) {
	if os.Getenv("LOOPKIT_HTTP1_SERVE") != "" {
		serveUntilStdinCloses()
		return
	}
	waiting.Parallel(8)
	os.Exit(m.Run())
}

func serveUntilStdinCloses() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	scheme := "http"
	if cert := os.Getenv("LOOPKIT_HTTP1_TLS_CERT"); cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, os.Getenv("LOOPKIT_HTTP1_TLS_KEY"))
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		ln, scheme = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{pair}}), "https"
	}
	var open atomic.Int64
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/conns":
				fmt.Fprint(w, open.Load())
				return
			case "/close": // one request per connection
				w.Header().Set("Connection", "close")
			case "/64k":
				w.Write(make([]byte, 64<<10))
				return
			}
			w.Write([]byte("ok"))
		}),
		ConnState: func(_ net.Conn, s http.ConnState) {
			switch s {
			case http.StateNew:
				open.Add(1)
			case http.StateClosed, http.StateHijacked:
				open.Add(-1)
			}
		},
	}
	go srv.Serve(ln)
	fmt.Println(scheme + "://" + ln.Addr().String())
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
}

// serverProcess starts the test binary as a server and returns its URL.
func serverProcess(t testing.TB) string { return startServerProcess(t) }

// tlsServerProcess starts the test binary as an https server with a
// certificate from ca, and returns its URL.
func tlsServerProcess(t testing.TB, ca *testca.CA) string {
	cert, key := ca.WriteServerFiles(t, t.TempDir())
	return startServerProcess(t, "LOOPKIT_HTTP1_TLS_CERT="+cert, "LOOPKIT_HTTP1_TLS_KEY="+key)
}

func startServerProcess(t testing.TB, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), "LOOPKIT_HTTP1_SERVE=1"), env...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "http") {
		t.Fatalf("server process said %q, %v", line, err)
	}
	return strings.TrimSpace(line)
}
