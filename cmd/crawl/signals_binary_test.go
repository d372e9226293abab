package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"loopkit/internal/wirelog"
)

// The first signal decides the exit status: SIGTERM, then Ctrl-C to
// cancel what is in flight, is still a stop by SIGTERM, 143. The second
// signal is sent once the command has said it took the first.
func TestFirstSignalDecidesTheExitStatus(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", slowPages(4, 10*time.Second))
	cmd := exec.Command(os.Args[0], "--per_host", "2", base)
	cmd.Env = append(os.Environ(), "LOOPKIT_CRAWL_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	waitFor(t, "pages in flight", func() bool { return len(srv.Arrivals("h")) >= 3 })
	cmd.Process.Signal(syscall.SIGTERM)
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var said []string
	sentSecond := false
	for over := false; !over; {
		select {
		case l, ok := <-lines:
			if !ok {
				over = true
				break
			}
			said = append(said, l)
			if !sentSecond && strings.HasPrefix(l, "crawl: interrupted: no new requests") {
				cmd.Process.Signal(os.Interrupt)
				sentSecond = true
			}
		case <-time.After(time.Minute):
			t.Fatalf("crawl still running after a minute; stderr: %s", strings.Join(said, "\n"))
		}
	}
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 143 || !sentSecond {
		t.Fatalf("exit %d, want 143 (second signal sent: %v); stderr:\n%s", code, sentSecond, strings.Join(said, "\n"))
	}
	if !strings.Contains(strings.Join(said, "\n"), "crawl: interrupted again: cancelling what is in flight") {
		t.Fatalf("the second signal was not taken:\n%s", strings.Join(said, "\n"))
	}
}
