package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"loopkit/bench/proc"
	"loopkit/bench/report"
	"loopkit/crawler"
	"loopkit/loop"
)

// S7's crawler is the real one, crawler.NewGroup, run in a role of this
// binary rather than as the crawl command. The reasons: the harness is
// one binary that plays every part, so `go run ./cmd/bench` builds
// nothing else and needs no Go toolchain at run time, and its tests
// re-run their own test binary in this role as in every other; and the
// child measures itself with bench/proc, as every variant does. The crawl
// command is a package main around the same call — flags, the report,
// signals — and the crawl here is set up as the command sets it up by
// default: crawler.DefaultLoops() loops with their statistics on, the
// crawler.Config defaults (100 tasks, robots.txt obeyed, parse workers
// on every processor, 100 000 queued URLs in memory), -o, --state, and no
// per-URL report (--report_urls 0). What it costs: this binary is larger
// than the crawl command (it also holds the site, net/http and the
// baselines), and the pages of code it runs are part of its RSS.

// crawlMaxTasks is the crawl's worker tasks: the command's default, and
// the bound on what a kill may cost (pages in flight, fetched again).
const crawlMaxTasks = 100

// crawlOrder is what a crawl child is told to do.
type crawlOrder struct {
	Roots  []string `json:"roots"`
	Output string   `json:"output"`          // -o
	State  string   `json:"state,omitempty"` // --state
	Poller string   `json:"poller,omitempty"`
	Loops  int      `json:"loops,omitempty"` // --loops; 0: crawler.DefaultLoops()
}

// The names of S7's rows: a crawl, a crawl with --state killed
// mid-crawl, and the same again on its state.
const (
	crawlVariant   = "crawl"
	killedVariant  = "crawl-killed"
	resumedVariant = "crawl-resumed"
)

// crawlVariants label S7's rows in the tables and the chart.
var crawlVariants = []report.Variant{
	{Name: crawlVariant, Label: "crawl -o", Short: "crawl", Kind: "crawler"},
	{Name: killedVariant, Label: "crawl -o --state, killed (SIGKILL) at half", Short: "killed", Kind: "crawler"},
	{Name: resumedVariant, Label: "the same command again", Short: "resumed", Kind: "crawler"},
}

// The names of S8's rows: the crawl with a loop per processor, and with
// one.
const (
	perCPULoopsVariant = "crawl-loops-per-cpu"
	oneLoopVariant     = "crawl-loops-1"
)

// loopsVariants label S8's rows.
var loopsVariants = []report.Variant{
	{Name: perCPULoopsVariant, Label: "crawl --loops N, a loop per processor", Short: "per processor", Kind: "crawler"},
	{Name: oneLoopVariant, Label: "crawl --loops 1", Short: "1 loop", Kind: "crawler"},
}

// runCrawlChild crawls as o says and prints a report.Sample as JSON.
func runCrawlChild(stdout io.Writer) error {
	started := time.Now()
	var o crawlOrder
	if err := json.Unmarshal([]byte(os.Getenv(envOrder)), &o); err != nil {
		return fmt.Errorf("bad order: %w", err)
	}
	_, _ = proc.RaiseFDLimit() // as every variant: if refused, the crawl's errors say so
	loops := o.Loops
	if loops == 0 {
		loops = crawler.DefaultLoops()
	}
	lg, err := loop.NewGroup(loops, &loop.GroupOptions{Options: loop.Options{Poller: o.Poller, Stats: true}})
	if err != nil {
		return err
	}
	defer lg.Close()
	run := &report.CrawlRun{Loops: loops}
	var mu sync.Mutex // notices come from NewGroup, then from the loops
	cfg := crawler.Config{Roots: o.Roots, Output: o.Output, State: o.State, MaxTasks: crawlMaxTasks, ReportURLs: -1,
		OnNotice: func(msg string) {
			mu.Lock()
			defer mu.Unlock()
			run.Notices = append(run.Notices, msg)
		}}
	g, err := crawler.NewGroup(lg, cfg) // opens -o and --state, and replays the journal
	if err != nil {
		return err
	}
	run.StartSeconds = time.Since(started).Seconds()
	sampler := proc.StartSampler(100 * time.Millisecond)
	crawlStart := time.Now()
	err = g.Crawl()
	run.CrawlSeconds = time.Since(crawlStart).Seconds()
	peaks := sampler.Stop()
	if err != nil {
		return err
	}
	st := g.Stats()
	run.Pages, run.Retries, run.RobotsFetches, run.QueuedPeak = st.Done, st.Retries, st.RobotsFetches, st.QueuedPeak
	u := proc.Now()
	run.CPUSeconds = u.CPU().Seconds()
	s := report.Sample{
		Variant:        crawlVariant,
		OK:             st.Fetched,
		Failed:         st.Errors,
		WallSeconds:    time.Since(started).Seconds(),
		Window:         report.Window{Seconds: run.CrawlSeconds, UserSeconds: u.User.Seconds(), SysSeconds: u.System.Seconds()},
		PeakRSSBytes:   u.PeakRSS,
		PeakGoroutines: peaks.Goroutines,
		PeakThreads:    peaks.Threads,
		CPUs:           proc.CPUList(),
		Crawl:          run,
	}
	if failed := g.FailedRoots(); len(failed) > 0 {
		s.FirstError = "root " + strings.Join(failed, "; root ")
	}
	mu.Lock()
	defer mu.Unlock()
	return json.NewEncoder(stdout).Encode(s)
}

// crawlProcess is a crawl child, seen from the harness.
type crawlProcess struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	started, ended time.Time
	exited         chan struct{} // closed once the child is reaped
	err            error         // what Wait said, once exited is closed
}

// startCrawl starts a crawl child on every processor, the site's too: a
// crawl uses them all, as the crawl command does.
func (b *bench) startCrawl(ctx context.Context, o crawlOrder) (*crawlProcess, error) {
	o.Poller = b.cfg.Poller
	env, err := childEnv(roleCrawl, o, runtime.NumCPU())
	if err != nil {
		return nil, err
	}
	p := &crawlProcess{cmd: exec.CommandContext(ctx, b.cfg.Self), exited: make(chan struct{})}
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	var cpus []int
	if b.clientCPUs != nil {
		cpus = append(slices.Clone(b.siteCPUs), b.clientCPUs...)
	}
	p.started = time.Now()
	if err := proc.StartPinned(p.cmd, cpus); err != nil {
		return nil, fmt.Errorf("starting the crawl: %w", err)
	}
	go func() {
		p.err = p.cmd.Wait()
		p.ended = time.Now()
		close(p.exited)
	}()
	return p, nil
}

// awaitFirstRequest polls the site, whose counters were reset before the
// child started, until it has seen a request, and returns the seconds
// from the child's start: late by at most the 5 ms between polls and one
// poll's round trip. 0 if the child exits first.
func (p *crawlProcess) awaitFirstRequest(s *siteProcess) float64 {
	for {
		if st, err := s.stats(); err == nil && st.Requests > 0 {
			return time.Since(p.started).Seconds()
		}
		select {
		case <-p.exited:
			return 0
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// sample waits for the child and returns the sample it printed.
func (p *crawlProcess) sample() (report.Sample, error) {
	<-p.exited
	if p.err != nil {
		return report.Sample{}, fmt.Errorf("the crawl: %v: %s", p.err, strings.TrimSpace(p.stderr.String()))
	}
	var s report.Sample
	if err := json.Unmarshal(lastLine(p.stdout.Bytes()), &s); err != nil || s.Crawl == nil {
		return report.Sample{}, fmt.Errorf("the crawl printed no sample (%v): %s", err, strings.TrimSpace(p.stdout.String()))
	}
	s.Crawl.ProcessSeconds = p.ended.Sub(p.started).Seconds()
	return s, nil
}

// machineWindow is the machine's busy CPU time and the site's at the
// start of a run: what the rest of the machine did meanwhile is the
// growth of the one less the site's and the crawler's.
type machineWindow struct {
	busy, site time.Duration
	ok         bool
}

func openMachineWindow(s *siteProcess) machineWindow {
	busy, ok1 := proc.MachineBusy()
	site, ok2 := proc.CPUOf(s.pid())
	return machineWindow{busy, site, ok1 && ok2}
}

// close fills in the site's CPU and everyone else's since the window
// opened, for a crawler that used crawlerCPU seconds: the harness's own
// polling is in the others', a few milliseconds.
func (w machineWindow) close(s *siteProcess, win *report.Window, crawlerCPU float64) {
	busy, ok1 := proc.MachineBusy()
	site, ok2 := proc.CPUOf(s.pid())
	if !w.ok || !ok1 || !ok2 || crawlerCPU <= 0 {
		return
	}
	win.SiteCPUSeconds = (site - w.site).Seconds()
	win.OtherCPUSeconds = max(0, (busy-w.busy).Seconds()-crawlerCPU-win.SiteCPUSeconds)
	win.Measured = true
}
