package harness

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"loopkit/bench/proc"
	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// bench is one invocation in progress.
type bench struct {
	cfg        Config
	sizes      sizes
	site       *siteProcess
	variants   []string            // the variants every scenario runs
	only       map[string][]string // by scenario: the variants of that one alone (Variant.Only)
	meta       report.Meta
	siteCPUs   []int // nil: not pinned
	clientCPUs []int
	rng        *rand.Rand
	capacity   map[string]float64 // S2's req/s at S6's concurrency, per variant
	profiles   int                // CPU profiles written so far, to number them
}

// Run runs the scenarios of cfg and returns their results. The site runs
// for the whole invocation; every run of every variant is a child process
// of its own, started after the site's counters were reset.
func Run(ctx context.Context, cfg Config) (*report.Results, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	started := time.Now()
	b := &bench{cfg: cfg, sizes: sizesFor(cfg.Quick),
		rng: rand.New(rand.NewPCG(cfg.Seed, 0)), capacity: make(map[string]float64), only: make(map[string][]string)}
	for _, name := range cfg.Variants {
		if v, _ := Lookup(name); v.Only == "" {
			b.variants = append(b.variants, name)
		} else {
			b.only[v.Only] = append(b.only[v.Only], name)
		}
	}
	b.sizes.pages = cfg.Pages
	if len(cfg.S7Pages) > 0 {
		b.sizes.s7Pages = cfg.S7Pages
	}
	b.pin()
	b.meta = b.makeMeta()
	for _, s := range cfg.Skipped {
		b.logf("not running %s", s)
	}
	// S7, S8 and S9 start sites of their own sizes; the others share this one.
	if slices.ContainsFunc(cfg.Scenarios, func(id string) bool { return id != "S7" && id != "S8" && id != "S9" }) {
		b.logf("starting the site (%d pages, GOMAXPROCS=%d); %s", cfg.Pages, b.meta.SiteProcs, b.meta.Pinning)
		s, err := startSite(cfg.Self, siteOrder{Pages: cfg.Pages}, b.meta.SiteProcs, b.siteCPUs)
		if err != nil {
			return nil, err
		}
		defer s.close()
		b.site = s
	}

	res := &report.Results{Meta: b.meta}
	for _, id := range cfg.Scenarios {
		var sc report.Scenario
		var err error
		switch id {
		case "S1":
			sc, err = b.bound(ctx)
		case "S2":
			sc, err = b.throughput(ctx)
		case "S3":
			sc, err = b.memory(ctx)
		case "S4":
			sc, err = b.crawl(ctx)
		case "S5":
			sc, err = b.syscalls(ctx)
		case "S6":
			sc, err = b.latency(ctx)
		case "S7":
			sc, err = b.million(ctx)
		case "S8":
			sc, err = b.loops(ctx)
		case "S9":
			sc, err = b.peers(ctx)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", id, err)
		}
		res.Scenarios = append(res.Scenarios, keepColumns(sc))
	}
	if !cfg.Quick {
		res.Targets = evaluateTargets(res)
	}
	res.Meta.LoadMax = b.meta.LoadMax
	res.Meta.LoadAfter = proc.LoadAverage()
	res.Meta.Seconds = time.Since(started).Seconds()
	return res, nil
}

// pin decides where the site and the clients run: with two processors or
// more, the site on the first and the clients on the rest, so that the
// client measured never competes with the server for a core, nor shares
// its caches. Without pinning the two float, and a client that needs less
// CPU leaves more to the site, which shows as throughput.
func (b *bench) pin() {
	n := runtime.NumCPU()
	if b.cfg.Pin == "auto" && n >= 2 && proc.CanPin() {
		b.siteCPUs = []int{0}
		for c := 1; c < n; c++ {
			b.clientCPUs = append(b.clientCPUs, c)
		}
	}
}

func (b *bench) makeMeta() report.Meta {
	m := report.Meta{
		Command:    b.cfg.Command,
		Date:       time.Now().UTC().Format("2006-01-02 15:04 MST"),
		GoVersion:  runtime.Version(),
		OS:         runtime.GOOS,
		Arch:       runtime.GOARCH,
		CPUs:       runtime.NumCPU(),
		CPUModel:   cpuModel(),
		GOMAXPROCS: b.cfg.GOMAXPROCS,
		SiteProcs:  b.cfg.SiteGOMAXPROCS,
		Poller:     b.cfg.Poller,
		Quick:      b.cfg.Quick,
		Seed:       b.cfg.Seed,
		LoadBefore: proc.LoadAverage(),
	}
	if m.Poller == "" {
		m.Poller = "default"
	}
	// By default every process may run a goroutine per processor it may
	// use: one each, pinned on two cores.
	if m.GOMAXPROCS == 0 {
		m.GOMAXPROCS = max(len(b.clientCPUs), 1)
		if b.clientCPUs == nil {
			m.GOMAXPROCS = runtime.NumCPU()
		}
	}
	if m.SiteProcs == 0 {
		m.SiteProcs = max(len(b.siteCPUs), 1)
		if b.siteCPUs == nil {
			m.SiteProcs = runtime.NumCPU()
		}
	}
	if b.siteCPUs != nil {
		m.Pinning = fmt.Sprintf("the site pinned to CPU %s, every client to CPU %s (sched_setaffinity)",
			cpuList(b.siteCPUs), cpuList(b.clientCPUs))
	} else {
		m.Pinning = fmt.Sprintf("not pinned: the site and the clients share all %d processors", m.CPUs)
	}
	for _, name := range b.cfg.Variants {
		v, _ := Lookup(name)
		m.Variants = append(m.Variants, v.Variant)
	}
	if slices.Contains(b.cfg.Scenarios, "S7") {
		m.Variants = append(m.Variants, crawlVariants...) // the real crawler's runs, by their labels
	}
	if slices.Contains(b.cfg.Scenarios, "S8") {
		m.Variants = append(m.Variants, loopsVariants...)
	}
	if slices.Contains(b.cfg.Scenarios, "S9") {
		m.Variants = append(m.Variants, peerVariants...)
	}
	return m
}

func cpuList(cpus []int) string {
	var s []string
	for _, c := range cpus {
		s = append(s, strconv.Itoa(c))
	}
	return strings.Join(s, ",")
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

// runOpts are what a scenario may add to its runs.
type runOpts struct {
	tool   *syscallTool // count system calls around every child
	memory bool         // measure memory at the plateau (S3)
	// everyCPU lets the client run on every processor, the site's too,
	// with a GOMAXPROCS to match: what several loops need.
	everyCPU bool
}

// collect runs job rounds times on every variant of vs. Within a round
// the variants run one after the other in a fresh random order, so that
// a drift of the machine (another process, a frequency change) lands on
// every variant alike, and never on the same one first or last; the
// samples of a round are later paired. samples[v][r] is round r+1. A run
// that fails to run at all is kept as a sample that failed, with why.
func (b *bench) collect(ctx context.Context, what string, rounds int, vs []string, job workload.Job, opt runOpts) (map[string][]report.Sample, error) {
	job.Poller = b.cfg.Poller
	out := make(map[string][]report.Sample)
	for r := 1; r <= rounds; r++ {
		order := append([]string(nil), vs...)
		b.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for i, v := range order {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s, err := b.sampleOnce(ctx, what, v, job, opt)
			if err != nil {
				return nil, err
			}
			s.Round, s.Order = r, i+1
			// The table's name for the variant, not its -variants id:
			// what a reader sees here is what the tables call it.
			b.logf("%s round %d/%d %s: %d ok, %d failed, %.2f s", what, r, rounds, b.meta.Label(v), s.OK, s.Failed, s.WallSeconds)
			out[v] = append(out[v], s)
		}
	}
	return out, nil
}

func (b *bench) sampleOnce(ctx context.Context, what, v string, job workload.Job, opt runOpts) (report.Sample, error) {
	if err := b.site.reset(); err != nil {
		return report.Sample{}, fmt.Errorf("resetting the site: %w", err)
	}
	if load, err := strconv.ParseFloat(strings.Fields(proc.LoadAverage() + " 0")[0], 64); err == nil {
		b.meta.LoadMax = max(b.meta.LoadMax, load)
	}
	var wrapper []string
	var counts string
	if opt.tool != nil {
		f, err := os.CreateTemp("", "loopkit-bench-syscalls-*.txt")
		if err != nil {
			return report.Sample{}, err
		}
		f.Close()
		counts = f.Name()
		defer os.Remove(counts)
		wrapper = opt.tool.args(counts)
	}
	order := variantOrder{Variant: v, Job: job, SitePID: b.site.pid(), Memory: opt.memory}
	if b.cfg.ProfileDir != "" && opt.tool == nil {
		b.profiles++
		order.CPUProfile = filepath.Join(b.cfg.ProfileDir, fmt.Sprintf("%03d-%s-%s.pprof", b.profiles, slug(what), v))
	}
	var kernel0 proc.KernelSockets
	if opt.memory {
		kernel0, _ = proc.ReadKernelSockets()
	}
	procs, cpus := b.meta.GOMAXPROCS, b.clientCPUs
	if opt.everyCPU {
		procs, cpus = runtime.NumCPU(), nil
		if b.clientCPUs != nil {
			cpus = append(slices.Clone(b.siteCPUs), b.clientCPUs...)
		}
	}
	p, err := startVariant(ctx, b.cfg.Self, wrapper, procs, cpus, order)
	var plateau *plateauReading
	if err == nil && opt.memory {
		plateau = b.awaitPlateau(p, job)
	}
	var s report.Sample
	if err == nil {
		s, err = p.wait()
	}
	if err == nil && opt.tool != nil {
		var data []byte
		if data, err = os.ReadFile(counts); err == nil {
			s.Syscalls, err = opt.tool.parse(data)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return s, ctx.Err()
		}
		b.logf("%v", err)
		s = report.Sample{Variant: v, Failed: max(job.N, 1), FirstError: err.Error()}
	}
	if s.Memory != nil && plateau != nil {
		plateau.fill(s.Memory, kernel0)
	}
	st, err := b.site.stats()
	if err != nil {
		return report.Sample{}, fmt.Errorf("reading the site's counters: %w", err)
	}
	s.ServerPeak, s.ServerRequests, s.ServerConns = st.PeakInFlight, st.Requests, st.Conns
	return s, nil
}

// slug makes a file name of a label: "S2 C = 64" becomes "S2-C64".
func slug(s string) string {
	s = strings.NewReplacer(" = ", "", "∞", "inf", "(", "", ")", "", "%", "pct").Replace(s)
	return strings.Join(strings.Fields(s), "-")
}

// concurrency labels a C value, 0 being unbounded.
func concurrency(c int) string {
	if c == 0 {
		return "C = ∞"
	}
	return fmt.Sprintf("C = %d", c)
}

// delayURL is the site's slow endpoint.
func (b *bench) delayURL(ms int) string {
	return fmt.Sprintf("%sdelay?ms=%d", b.site.url, ms)
}
