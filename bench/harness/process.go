package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"loopkit/bench/proc"
	"loopkit/bench/report"
	"loopkit/site"
)

// childEnv is the environment of a child: ours, plus its role, its
// orders and its GOMAXPROCS (the last value of a key wins in exec).
func childEnv(role string, order any, gomaxprocs int) ([]string, error) {
	data, err := json.Marshal(order)
	if err != nil {
		return nil, err
	}
	return append(os.Environ(),
		envRole+"="+role,
		envOrder+"="+string(data),
		"GOMAXPROCS="+strconv.Itoa(gomaxprocs),
	), nil
}

// siteProcess is the site, served by a child process.
type siteProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	url    string   // host 0's root, which speaks for the whole site
	roots  []string // every host's root, url first
	client *http.Client
}

// startSite starts the site child on cpus and waits for its root URL.
func startSite(self string, order siteOrder, gomaxprocs int, cpus []int) (*siteProcess, error) {
	env, err := childEnv(roleSite, order, gomaxprocs)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := proc.StartPinned(cmd, cpus); err != nil {
		return nil, err
	}
	s := &siteProcess{cmd: cmd, stdin: stdin, client: &http.Client{Timeout: 10 * time.Second}}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		s.close()
		return nil, fmt.Errorf("the site did not start: %w", err)
	}
	s.roots = strings.Fields(line)
	if len(s.roots) == 0 {
		s.close()
		return nil, fmt.Errorf("the site did not say where it listens")
	}
	s.url = s.roots[0]
	return s, nil
}

func (s *siteProcess) pid() int { return s.cmd.Process.Pid }

// reset starts the site's counters anew, before a run.
func (s *siteProcess) reset() error {
	resp, err := s.client.Post(s.url+"reset", "", nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("POST /reset: %s", resp.Status)
	}
	return nil
}

// stats reads the site's counters.
func (s *siteProcess) stats() (site.Stats, error) {
	var st site.Stats
	resp, err := s.client.Get(s.url + "stats")
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	err = json.NewDecoder(resp.Body).Decode(&st)
	return st, err
}

// close stops the site: closing its stdin tells it to shut down.
func (s *siteProcess) close() error {
	s.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		return errors.New("the site did not stop; killed")
	}
}

// variantProcess is one run of one variant, in a child process.
type variantProcess struct {
	name           string
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
}

// startVariant starts a child running o on cpus, under wrapper if one is
// given (strace, perf: the child is their last argument).
func startVariant(ctx context.Context, self string, wrapper []string, gomaxprocs int, cpus []int, o variantOrder) (*variantProcess, error) {
	env, err := childEnv(roleVariant, o, gomaxprocs)
	if err != nil {
		return nil, err
	}
	argv := append(append([]string(nil), wrapper...), self)
	p := &variantProcess{name: o.Variant, cmd: exec.CommandContext(ctx, argv[0], argv[1:]...)}
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := proc.StartPinned(p.cmd, cpus); err != nil {
		return nil, fmt.Errorf("%s: %w", o.Variant, err)
	}
	return p, nil
}

// plateau tells the child that its connections are all open: time to
// measure its memory.
func (p *variantProcess) plateau() error { return p.cmd.Process.Signal(syscall.SIGUSR1) }

// wait waits for the child and returns the sample it printed.
func (p *variantProcess) wait() (report.Sample, error) {
	if err := p.cmd.Wait(); err != nil {
		return report.Sample{}, fmt.Errorf("%s: %v: %s", p.name, err, strings.TrimSpace(p.stderr.String()))
	}
	var s report.Sample
	if err := json.Unmarshal(lastLine(p.stdout.Bytes()), &s); err != nil {
		return report.Sample{}, fmt.Errorf("%s: reading its sample: %v", p.name, err)
	}
	return s, nil
}

// lastLine is the last non-empty line of out: the sample, whatever a
// wrapper may have printed before it.
func lastLine(out []byte) []byte {
	out = bytes.TrimRight(out, "\n")
	if i := bytes.LastIndexByte(out, '\n'); i >= 0 {
		return out[i+1:]
	}
	return out
}
