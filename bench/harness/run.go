package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"loopkit/bench/proc"
	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// bench is one invocation in progress.
type bench struct {
	cfg      Config
	sizes    sizes
	site     *siteProcess
	variants []string
	meta     report.Meta
	profiles int // CPU profiles written so far, to number them
}

// Run runs the scenarios of cfg and returns their results. The site runs
// for the whole invocation; every run of every variant is a child process
// of its own, started after the site's counters were reset.
func Run(ctx context.Context, cfg Config) (*report.Results, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	b := &bench{cfg: cfg, sizes: sizesFor(cfg.Quick), variants: cfg.Variants}
	b.sizes.pages = cfg.Pages
	siteProcs := cfg.SiteGOMAXPROCS
	if siteProcs == 0 {
		siteProcs = runtime.NumCPU()
	}
	b.meta = b.makeMeta(siteProcs)
	b.logf("starting the site (%d pages, GOMAXPROCS=%d)", cfg.Pages, siteProcs)
	s, err := startSite(cfg.Self, cfg.Pages, siteProcs)
	if err != nil {
		return nil, err
	}
	defer s.close()
	b.site = s

	res := &report.Results{Meta: b.meta}
	for _, id := range cfg.Scenarios {
		var sc report.Scenario
		switch id {
		case "S1":
			sc, err = b.latency(ctx)
		case "S2":
			sc, err = b.throughput(ctx)
		case "S3":
			sc, err = b.c10k(ctx)
		case "S4":
			sc, err = b.crawl(ctx)
		case "S5":
			sc, err = b.syscalls(ctx)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", id, err)
		}
		res.Scenarios = append(res.Scenarios, keepColumns(sc))
	}
	res.Targets = evaluateTargets(res)
	res.Meta.LoadAfter = proc.LoadAverage()
	return res, nil
}

func (b *bench) makeMeta(siteProcs int) report.Meta {
	m := report.Meta{
		Command:    b.cfg.Command,
		Date:       time.Now().UTC().Format("2006-01-02 15:04 MST"),
		GoVersion:  runtime.Version(),
		OS:         runtime.GOOS,
		Arch:       runtime.GOARCH,
		CPUs:       runtime.NumCPU(),
		CPUModel:   cpuModel(),
		GOMAXPROCS: b.cfg.GOMAXPROCS,
		SiteProcs:  siteProcs,
		Runs:       b.cfg.Runs,
		Poller:     b.cfg.Poller,
		LoadBefore: proc.LoadAverage(),
	}
	if m.Poller == "" {
		m.Poller = "default"
	}
	for _, name := range b.variants {
		v, _ := Lookup(name)
		m.Variants = append(m.Variants, v.Variant)
		if v.Baseline {
			m.Baselines = append(m.Baselines, v.Name)
		}
	}
	return m
}

// cpuModel reads the processor's name where /proc/cpuinfo has it.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return ""
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(b.cfg.Progress, "bench: "+format+"\n", args...)
}

// samples runs job cfg.Runs times on every variant, one variant after
// the other within a run, so that a slow drift of the machine (another
// process, thermal limits) spreads over all variants instead of landing
// on one. A run that fails to run at all is kept as a sample that
// failed every request, with the reason.
func (b *bench) samples(ctx context.Context, what string, job workload.Job) (map[string][]report.Sample, error) {
	return b.samplesWith(ctx, what, job, nil)
}

// samplesWith is samples with every child run under a syscall counter.
func (b *bench) samplesWith(ctx context.Context, what string, job workload.Job, tool *syscallTool) (map[string][]report.Sample, error) {
	job.Poller = b.cfg.Poller
	out := make(map[string][]report.Sample)
	for run := 1; run <= b.cfg.Runs; run++ {
		for _, v := range b.variants {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s, err := b.sampleOnce(ctx, what, v, job, tool)
			if err != nil {
				return nil, err
			}
			b.logf("%s %s run %d/%d: %d ok, %d failed, %.3f s", what, v, run, b.cfg.Runs, s.OK, s.Failed, s.WallSeconds)
			out[v] = append(out[v], s)
		}
	}
	return out, nil
}

func (b *bench) sampleOnce(ctx context.Context, what, v string, job workload.Job, tool *syscallTool) (report.Sample, error) {
	if err := b.site.reset(); err != nil {
		return report.Sample{}, fmt.Errorf("resetting the site: %w", err)
	}
	var wrapper []string
	var counts string
	if tool != nil {
		f, err := os.CreateTemp("", "loopkit-bench-syscalls-*.txt")
		if err != nil {
			return report.Sample{}, err
		}
		f.Close()
		counts = f.Name()
		defer os.Remove(counts)
		wrapper = tool.args(counts)
	}
	order := variantOrder{Variant: v, Job: job}
	if b.cfg.ProfileDir != "" && tool == nil {
		b.profiles++
		order.CPUProfile = filepath.Join(b.cfg.ProfileDir, fmt.Sprintf("%03d-%s-%s.pprof", b.profiles, slug(what), v))
	}
	siteBefore, measured := b.site.cpu()
	s, err := runVariant(ctx, b.cfg.Self, wrapper, b.cfg.GOMAXPROCS, order)
	siteAfter, measuredAfter := b.site.cpu()
	if err == nil && tool != nil {
		var data []byte
		if data, err = os.ReadFile(counts); err == nil {
			s.Syscalls, err = tool.parse(data)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return s, ctx.Err()
		}
		b.logf("%v", err)
		s = report.Sample{Variant: v, Failed: max(job.N, 1), FirstError: err.Error()}
	}
	st, err := b.site.stats()
	if err != nil {
		return report.Sample{}, fmt.Errorf("reading the site's counters: %w", err)
	}
	s.ServerPeak, s.ServerRequests, s.ServerConns = st.PeakInFlight, st.Requests, st.Conns
	if measured && measuredAfter {
		s.ServerCPUSeconds = (siteAfter - siteBefore).Seconds()
	}
	return s, nil
}

// delayURL is the site's slow endpoint.
func (b *bench) delayURL(ms int) string {
	return fmt.Sprintf("%sdelay?ms=%d", b.site.url, ms)
}

// slug makes a file name of a label: "S2 C = 64" becomes "S2-C64".
func slug(s string) string {
	s = strings.NewReplacer(" = ", "", "∞", "inf", "(", "", ")", "").Replace(s)
	return strings.Join(strings.Fields(s), "-")
}

// concurrency labels a C value, 0 being unbounded.
func concurrency(c int) string {
	if c == 0 {
		return "C = ∞"
	}
	return fmt.Sprintf("C = %d", c)
}
