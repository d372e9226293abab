//go:build e2e

package commands

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"loopkit/docs/internal/doccheck"
)

// The chapters whose commands run here. docs/journal.md and docs/fleet.md
// have tests of their own commands in their packages.
var chapters = []string{"README.md", "docs/tutorial.md", "docs/kernel.md", "docs/resp.md"}

// how says how a command is run.
type how struct {
	// masks are patterns for what differs from run to run in the output
	// the chapter quotes (besides doccheck's: times, rates, ports).
	masks []string
	// writes are files the command writes, from the module's root: each is
	// put back as it was (or removed) once the command is done.
	writes []string
	// server: the command serves until stopped. It runs until its output
	// matches this pattern, and is then stopped.
	server string
	// env is added to the command's environment.
	env []string
	// notRun says why the command is not run as written; instead, if
	// set, runs in its place, and check checks something else about it.
	notRun  string
	instead string
	check   func(t *testing.T)
	// timeout is how long it may take. [3m]
	timeout time.Duration
}

// crawlMasks are what a crawl's stats lines say differently each run.
var crawlMasks = []string{
	`\d+ (turns|waits|callbacks|ready fds|requests|connections|pages|parse workers)\b`,
	`\d+(\.\d+)? MB`, `longest \S+ \(.+\)`, `calls: .*`,
}

// commands are every command the chapters show, as written (comments cut).
var commands = map[string]how{
	// README.md
	"go run ./cmd/crawl": {},
	"go test ./...": {notRun: "the whole suite, this test among it: .ci/run runs it as written",
		check: ciRuns("go test ./...")},
	"go test -tags e2e ./...": {notRun: "the whole suite with the e2e tests, this test among it: .ci/run runs it, with -race and -count=1",
		check: ciRuns("go test -race -count=1 -tags e2e ./...")},
	"go test -race -tags e2e ./...": {notRun: "the whole suite under the race detector, this test among it: .ci/run runs it, with -count=1",
		check: ciRuns("go test -race -count=1 -tags e2e ./...")},
	"go run ./cmd/bench": {notRun: "ten rounds of every scenario, most of an hour on 2 cores; -quick runs every scenario but S5 in seconds, on the same code",
		instead: "go run ./cmd/bench -quick -scenarios S5 -duration 100ms -warmup 20ms"},
	"go run ./cmd/bench -quick":          {timeout: 10 * time.Minute},
	"go run ./cmd/crawl [flags] ROOT...": {notRun: "a synopsis, not a command"},
	"go run ./cmd/crawl -o pages.jsonl --max_tasks 10 --per_host 4 --delay 100ms --demo_pages 40": {writes: []string{"pages.jsonl"}},
	"go run ./docs/workshop next":                            {},
	"go run ./docs/stages/3-callbacks":                       {},
	"bash docs/kernel/capture.sh":                            {timeout: 5 * time.Minute},
	"go test ./crawler/http1 -run TestAllocationsPerRequest": {},
	"go run ./internal/mutants": {notRun: "fifty minutes for the whole list: -list shows what it would plant, and builds it",
		instead: "go run ./internal/mutants -list"},

	// docs/tutorial.md
	"go run ./docs/stages/1-blocking":  {},
	"go test ./docs/stages/...":        {},
	"go run ./docs/stages/2-busy-loop": {masks: []string{`asking in vain \d+ times`, `after asking \d+ times`}},
	"go run ./docs/stages/4-futures":   {},
	// The unbounded round's peak at the server is as many of the twenty
	// as have connected before the first is answered, 50 ms later: on a
	// machine this busy, fewer (15 seen at a load of 16). The bounded
	// round's peak, 5, cannot be more, and is checked.
	"go run ./docs/stages/5-tasks":                     {masks: []string{`limit 0; server peak in flight: \d+`}},
	"go run ./docs/stages/6-crawler":                   {},
	"go run ./docs/stages/7-blocking-mistake":          {},
	"go run ./docs/stages/8-threadsafe":                {masks: []string{`worker \d+`}},
	"go run ./cmd/crawl --loops 1 --trace trace.jsonl": {masks: crawlMasks, writes: []string{"trace.jsonl"}},
	"go run ./cmd/crawl --loops 2 --demo_page_bytes 30000 --trace_events crawl.json --timeline crawl.svg": {
		masks: crawlMasks, writes: []string{"crawl.json", "crawl.svg"}},
	"go test ./crawler/http1 ./bench/conns -run '^$' -bench Request -benchmem": {timeout: 5 * time.Minute},
	"go test ./crawler/http1 -run TestAllocationsPerRequest -v":                {},
	"go run ./cmd/site -pages 600 -page-bytes 64000 -addr 127.0.0.1:18080 &":   {server: `http://127\.0\.0\.1:18080/`},
	"go run ./cmd/crawl --loops 1 --parse_workers 0 http://127.0.0.1:18080/":   {masks: crawlMasks},
	"go run ./docs/timelines":             {writes: []string{"docs/timelines/semaphore-and-unbounded.svg"}},
	"go run ./docs/workshop list":         {},
	"go run ./cmd/site -page-bytes 64000": {server: `http://127\.0\.0\.1:\d+/`},

	// docs/kernel.md
	"go run ./docs/stages/9-syscalls -trace": {},
	"go run ./docs/kernel/edge":              {},

	// docs/resp.md
	"go test -run XXX -bench RoundTrip -benchmem ./crawler/resp/": {env: []string{"LOOPKIT_REDIS_REQUIRED=1"}},
	"apt-get install redis-server": {notRun: "installs a package, as root: .ci/run installs it where it is missing; here, redis-server must be on PATH",
		check: func(t *testing.T) {
			if _, err := exec.LookPath("redis-server"); err != nil {
				t.Error("redis-server is not on PATH: the Redis chapter's commands need it")
			}
			ciRuns(`command -v redis-server >/dev/null || missing+=" redis-server"`)(t)
			ciRuns("DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null")(t)
		}},
	"go test ./crawler/resp/": {env: []string{"LOOPKIT_REDIS_REQUIRED=1"}},
}

// ciRuns checks that .ci/run has a line that is command, exactly.
func ciRuns(command string) func(t *testing.T) {
	return func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(doccheck.ModuleRoot(t), ".ci/run"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.TrimSpace(line) == command {
				return
			}
		}
		t.Errorf(".ci/run runs no %q", command)
	}
}

// comment is what follows a command on a line of a ```sh block: two
// spaces or more and a #.
var comment = regexp.MustCompile(`\s{2,}#.*$`)

// inline is a command written in the prose: go run, go test or bash, with
// a path (`go test -race` alone names a flag, not a command).
var inline = regexp.MustCompile("`((?:go (?:run|test)|bash) [^`]*\\./[^`]*)`")

// found is a command and where a chapter shows it.
type found struct {
	command, where string
}

// chapterCommands returns every command the chapters show: the lines of
// their ```sh blocks, the "$ " lines of their ```text blocks, and the
// commands in their prose.
func chapterCommands(t *testing.T) []found {
	t.Helper()
	root := doccheck.ModuleRoot(t)
	var out []found
	for _, doc := range chapters {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		fence := ""
		for i, line := range strings.Split(string(b), "\n") {
			where := fmt.Sprintf("%s:%d", doc, i+1)
			switch {
			case strings.HasPrefix(line, "```") && fence == "":
				fence = strings.TrimPrefix(line, "```")
				if fence == "" {
					fence = "plain"
				}
			case strings.HasPrefix(line, "```"):
				fence = ""
			case fence == "sh" && strings.TrimSpace(line) != "":
				out = append(out, found{comment.ReplaceAllString(line, ""), where})
			case fence == "text" && strings.HasPrefix(line, "$ "):
				out = append(out, found{strings.TrimPrefix(line, "$ "), where})
			case fence == "":
				for _, m := range inline.FindAllStringSubmatch(line, -1) {
					out = append(out, found{m[1], where})
				}
			}
		}
	}
	return out
}

// Every command a chapter shows is listed here, and every command listed
// is still in a chapter.
func TestEveryCommandIsListed(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range chapterCommands(t) {
		seen[f.command] = true
		if _, ok := commands[f.command]; !ok {
			t.Errorf("%s: %q is not listed in docs/commands: say how it runs", f.where, f.command)
		}
	}
	for c := range commands {
		if !seen[c] {
			t.Errorf("%q is listed, but no chapter shows it any more", c)
		}
	}
}

// Each command runs as written, from the module's root, and exits 0; where
// a chapter quotes its output, the quotation is checked against it.
func TestCommandsRunAsWritten(t *testing.T) {
	root := doccheck.ModuleRoot(t)
	quotes := map[string][]string{} // command → the output quoted after it
	pairs := map[string]string{}    // a command → the server a block starts before it
	for _, doc := range chapters {
		for _, b := range doccheck.Blocks(t, doc) {
			last := b.Commands[len(b.Commands)-1]
			if len(b.Output) > 0 {
				quotes[last] = b.Output
			}
			if len(b.Commands) == 2 && strings.HasSuffix(b.Commands[0], " &") {
				pairs[last] = b.Commands[0]
			}
		}
	}
	for _, c := range slices.Sorted(maps.Keys(commands)) {
		h := commands[c]
		if servedBy(pairs, c) {
			continue // run with the command after it
		}
		t.Run(c, func(t *testing.T) {
			if h.notRun != "" {
				t.Logf("not run as written: %s", h.notRun)
				if h.check != nil {
					h.check(t)
				}
				if h.instead == "" {
					return
				}
				c = h.instead
				t.Logf("run instead: %s", c)
			}
			if h.server != "" {
				stop := serve(t, root, c, h)
				stop()
				return
			}
			if server, ok := pairs[c]; ok {
				defer serve(t, root, server, commands[server])()
			}
			out := runAsWritten(t, root, c, h)
			if q, ok := quotes[c]; ok {
				doccheck.Match(t, c, q, out, h.masks...)
			}
		})
	}
}

func servedBy(pairs map[string]string, c string) bool {
	for _, server := range pairs {
		if server == c {
			return true
		}
	}
	return false
}

// runAsWritten runs c with bash from root, and returns what it printed.
func runAsWritten(t *testing.T, root, c string, h how) string {
	t.Helper()
	defer keep(t, root, h.writes)()
	timeout := cmp.Or(h.timeout, 3*time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := command(ctx, root, c, h)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s: still running after %v:\n%s", c, timeout, tail(out.String()))
	}
	if err != nil {
		t.Fatalf("%s: %v:\n%s", c, err, tail(out.String()))
	}
	t.Logf("%s: exit 0 in %v", c, time.Since(start).Round(time.Millisecond))
	return out.String()
}

// serve starts a server command (bash's trailing & dropped: the test
// keeps it in the background itself), waits until its output says it is
// listening, and returns what stops it.
func serve(t *testing.T, root, c string, h how) (stop func()) {
	t.Helper()
	c = strings.TrimSuffix(c, " &")
	if port, ok := fixedPort(c); ok {
		if ln, err := net.Listen("tcp", "127.0.0.1:"+port); err != nil {
			t.Fatalf("%s needs port %s, which is taken on this machine: %v", c, port, err)
		} else {
			ln.Close()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	cmd := command(ctx, root, c, h)
	out := newSyncBuffer()
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stop = func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) // go run and the program it started
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		cancel()
	}
	ready := regexp.MustCompile(h.server)
	for deadline := time.After(2 * time.Minute); !ready.MatchString(out.String()); {
		select {
		case err := <-done:
			done <- err
			stop()
			t.Fatalf("%s ended before it said it serves (%v):\n%s", c, err, tail(out.String()))
		case <-deadline:
			stop()
			t.Fatalf("%s never said it serves, in 2 minutes:\n%s", c, tail(out.String()))
		case <-out.wrote:
		}
	}
	t.Logf("%s: serving", c)
	return stop
}

var portFlag = regexp.MustCompile(`127\.0\.0\.1:(\d+)`)

func fixedPort(c string) (string, bool) {
	m := portFlag.FindStringSubmatch(c)
	if m == nil || m[1] == "0" {
		return "", false
	}
	return m[1], true
}

// command is bash -c c, from root, in a process group of its own.
func command(ctx context.Context, root, c string, h how) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "bash", "-c", c)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), h.env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	return cmd
}

// keep saves the files a command writes and returns what puts them back.
func keep(t *testing.T, root string, files []string) func() {
	t.Helper()
	saved := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		switch {
		case err == nil:
			saved[f] = b
		case !errors.Is(err, os.ErrNotExist):
			t.Fatal(err)
		}
	}
	return func() {
		for _, f := range files {
			path := filepath.Join(root, f)
			if _, err := os.Stat(path); err != nil {
				t.Errorf("the command did not write %s", f)
			}
			if b, ok := saved[f]; ok {
				os.WriteFile(path, b, 0o644)
			} else {
				os.Remove(path)
			}
		}
	}
}

// syncBuffer is a buffer a command writes to while the test reads it;
// wrote has a token after each write.
type syncBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{wrote: make(chan struct{}, 1)} }

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.buf.Write(p)
	select {
	case b.wrote <- struct{}{}:
	default:
	}
	return n, err
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func tail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}
