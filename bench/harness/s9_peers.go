package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"loopkit/bench/report"
	"loopkit/site"
)

// peers is S9: the crawlers a user would pick instead, on the same demo
// site with the same per-host limit, measured from outside, as a user
// would see them: CPU per page, peak RSS, wall time, and the URLs the
// site says each one fetched against the URLs a polite crawler fetches
// (the site's own link graph). Beside the crawl command: colly, built
// from its own module in bench/peers (so that colly never becomes a
// dependency of loopkit's), and Scrapy where Debian's python3-scrapy is
// installed. A peer that cannot run here is skipped, with a note saying
// why.
func (b *bench) peers(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	sc := report.Scenario{
		ID: "S9",
		Title: fmt.Sprintf("the crawlers a user would pick instead: the demo site, %s pages over %d hosts, %d requests per host at most",
			report.FormatNumber(float64(z.s9Pages), 0), z.s9Hosts, peerPerHost),
		Rounds:    z.s9Rounds,
		Reference: peerLoopkit,
		Columns: []report.Column{
			{Metric: "cpu_page_us", Header: "CPU µs/page", Digits: 0, Ratio: true},
			{Metric: "wall_s", Header: "wall s", Digits: 2},
			{Metric: "rss_mib", Header: "peak RSS MiB", Digits: 1},
			{Metric: "pages", Header: "pages served"},
		},
		CheckHeader: "URLs the site served, against its link graph",
	}
	dir, err := os.MkdirTemp("", "loopkit-bench-peers-*")
	if err != nil {
		return sc, err
	}
	defer os.RemoveAll(dir)
	want, err := expectedPaths(z.s9Pages, z.s9Hosts)
	if err != nil {
		return sc, err
	}
	runners := map[string]func(roots []string) *exec.Cmd{peerLoopkit: b.loopkitPeer(dir)}
	if c, why := buildColly(ctx, dir); c != nil {
		runners[peerColly] = c
	} else {
		sc.Notes = append(sc.Notes, "colly: skipped: "+why)
		b.logf("S9: colly skipped: %s", why)
	}
	if c, why := findScrapy(); c != nil {
		runners[peerScrapy] = c
	} else {
		sc.Notes = append(sc.Notes, "Scrapy: skipped: "+why)
		b.logf("S9: Scrapy skipped: %s", why)
	}
	s, err := startSite(b.cfg.Self, siteOrder{Pages: z.s9Pages, Hosts: z.s9Hosts}, b.meta.SiteProcs, b.siteCPUs)
	if err != nil {
		return sc, err
	}
	defer s.close()
	rows := map[string]*report.Row{}
	checks := map[string][]string{}
	for round := 1; round <= z.s9Rounds; round++ {
		order := mapKeys(runners)
		slices.Sort(order)
		b.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, v := range order {
			sample, check, err := b.runPeer(ctx, s, v, runners[v](s.roots), want)
			if err != nil {
				return sc, err
			}
			if rows[v] == nil {
				rows[v] = &report.Row{Variant: v}
			}
			rows[v].Samples = append(rows[v].Samples, sample)
			checks[v] = append(checks[v], check)
			b.logf("S9 round %d/%d %s: %d pages, %.2f s, %.2f CPU s; %s", round, z.s9Rounds, v, sample.OK, sample.WallSeconds,
				sample.Window.UserSeconds+sample.Window.SysSeconds, check)
		}
	}
	var out []report.Row
	for _, v := range []string{peerLoopkit, peerColly, peerScrapy} {
		if rows[v] != nil {
			out = append(out, *rows[v])
		}
	}
	t := peerTable(out)
	rowsOut := t.rows(peerLoopkit, "cpu_page_us")
	for i := range rowsOut {
		rowsOut[i].Check = strings.Join(dedupe(checks[rowsOut[i].Variant]), " / ")
	}
	sc.Cases = []report.Case{{Label: fmt.Sprintf("%d hosts", z.s9Hosts), Rows: rowsOut}}
	sc.Notes = append([]string{
		"Each crawler is a process of its own, not pinned: each may use every processor, the site's too, as a user would run it " +
			"(the machine line above is about the other scenarios' clients). It is measured from outside: CPU is its user and system time (wait4), " +
			"peak RSS its maximum resident set, wall from its start to its exit. CPU per page is over the pages the site served " +
			"(robots.txt left out). The URL check compares what the site counted it served, path by path, with its link graph: " +
			"every URL a polite crawler fetches, once.",
		fmt.Sprintf("loopkit is the crawl command's crawler as it runs by default (bench/harness's crawl child, S7's), "+
			"--per_host %d; colly v2.3.0 runs one limit rule per host (Parallelism %d); Scrapy counts its per-host limit "+
			"by host name without the port, so on the demo site's hosts (one address, many ports) its %d is one limit for all.",
			peerPerHost, peerPerHost, peerPerHost),
	}, sc.Notes...)
	return sc, nil
}

// The per-host limit every peer is given: the crawl command's default.
const peerPerHost = 8

// The names of S9's rows.
const (
	peerLoopkit = "peer-loopkit"
	peerColly   = "peer-colly"
	peerScrapy  = "peer-scrapy"
)

// peerVariants label S9's rows.
var peerVariants = []report.Variant{
	{Name: peerLoopkit, Label: "loopkit (the crawl command)", Short: "loopkit", Kind: "crawler"},
	{Name: peerColly, Label: "colly v2.3.0", Short: "colly", Kind: "crawler"},
	{Name: peerScrapy, Label: "Scrapy (Debian's python3-scrapy)", Short: "Scrapy", Kind: "crawler"},
}

// loopkitPeer runs the crawl child, the crawl command's crawler.
func (b *bench) loopkitPeer(dir string) func([]string) *exec.Cmd {
	return func(roots []string) *exec.Cmd {
		env, err := childEnv(roleCrawl, crawlOrder{Roots: roots, Output: filepath.Join(dir, "loopkit.jsonl"), Poller: b.cfg.Poller}, runtime.NumCPU())
		if err != nil {
			panic(err) // a crawlOrder always encodes
		}
		cmd := exec.Command(b.cfg.Self)
		cmd.Env = env
		return cmd
	}
}

// buildColly builds bench/peers/colly into dir, or says why it cannot.
func buildColly(ctx context.Context, dir string) (func([]string) *exec.Cmd, string) {
	peers, err := findPeersModule()
	if err != nil {
		return nil, err.Error()
	}
	if _, err := exec.LookPath("go"); err != nil {
		return nil, "no go command on PATH to build it with"
	}
	bin := filepath.Join(dir, "colly-crawl")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./colly")
	build.Dir = peers
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("building bench/peers/colly failed (%v): %s", err, headLine(string(out)))
	}
	return func(roots []string) *exec.Cmd {
		return exec.Command(bin, append([]string{"-per_host", fmt.Sprint(peerPerHost)}, roots...)...)
	}, ""
}

// findScrapy finds a Python that can import scrapy: Debian's first.
func findScrapy() (func([]string) *exec.Cmd, string) {
	peers, err := findPeersModule()
	if err != nil {
		return nil, err.Error()
	}
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import scrapy").Run() == nil {
			script := filepath.Join(peers, "scrapy_crawl.py")
			return func(roots []string) *exec.Cmd {
				return exec.Command(py, append([]string{script, "--per_host", fmt.Sprint(peerPerHost)}, roots...)...)
			}, ""
		}
	}
	return nil, "no python3 here can import scrapy (on Debian: apt-get install python3-scrapy)"
}

// findPeersModule finds bench/peers from the working directory or above:
// the harness runs from a clone of the repository.
func findPeersModule() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "bench", "peers")
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("bench/peers not found from the working directory: run from a clone of loopkit")
		}
		dir = parent
	}
}

// runPeer runs one crawler to its end and measures it from outside.
func (b *bench) runPeer(ctx context.Context, s *siteProcess, variant string, cmd *exec.Cmd, want map[string]int64) (report.Sample, string, error) {
	if err := s.reset(); err != nil {
		return report.Sample{}, "", fmt.Errorf("resetting the site: %w", err)
	}
	b.noteLoad()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	w := openMachineWindow(s)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return report.Sample{}, "", fmt.Errorf("%s: %w", variant, err)
	}
	stop := context.AfterFunc(ctx, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	stop()
	wall := time.Since(start).Seconds()
	if ctx.Err() != nil {
		return report.Sample{}, "", ctx.Err()
	}
	st, serr := s.stats()
	if serr != nil {
		return report.Sample{}, "", fmt.Errorf("reading the site's counters: %w", serr)
	}
	sample := report.Sample{Variant: variant, WallSeconds: wall}
	ps := cmd.ProcessState
	sample.Window = report.Window{Seconds: wall, UserSeconds: ps.UserTime().Seconds(), SysSeconds: ps.SystemTime().Seconds()}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		sample.PeakRSSBytes = ru.Maxrss * maxrssUnit()
	}
	w.close(s, &sample.Window, sample.Window.UserSeconds+sample.Window.SysSeconds)
	robots := st.Paths["/robots.txt"]
	sample.OK = int(st.Requests - robots)
	if err != nil {
		sample.FirstError = fmt.Sprintf("%v: %s", err, headLine(stderr.String()))
		return sample, "the crawler FAILED: " + sample.FirstError, nil
	}
	return sample, comparePaths(st.Paths, want), nil
}

// expectedPaths is the demo site's link graph as the site counts what it
// serves: requests per path (the query left out), over all hosts.
func expectedPaths(pages, hosts int) (map[string]int64, error) {
	s, err := site.Start(site.Config{Pages: pages, Hosts: hosts}, "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer s.Close()
	want := map[string]int64{}
	for _, u := range s.Expected(true) {
		p, err := url.Parse(u)
		if err != nil {
			return nil, err
		}
		want[p.Path]++
	}
	return want, nil
}

// comparePaths says how the paths the site served match want.
func comparePaths(got, want map[string]int64) string {
	var missing, extra, dup int64
	for p, n := range want {
		if g := got[p]; g < n {
			missing += n - g
		}
	}
	for p, g := range got {
		if p == "/robots.txt" {
			continue
		}
		switch n, ok := want[p]; {
		case !ok:
			extra += g
		case g > n:
			dup += g - n
		}
	}
	var total int64
	for _, n := range want {
		total += n
	}
	if missing == 0 && extra == 0 && dup == 0 {
		return fmt.Sprintf("exactly the site's %s URLs, each once", report.FormatNumber(float64(total), 0))
	}
	return fmt.Sprintf("NOT the site's URL set: %d of its %s missing, %d fetched more than once, %d outside it",
		missing, report.FormatNumber(float64(total), 0), dup, extra)
}

// peerTable is S9's rows as a table, for medians and paired ratios.
func peerTable(rows []report.Row) *table {
	t := &table{samples: map[string][]report.Sample{}, values: map[string]map[string][]float64{}}
	for _, r := range rows {
		t.variants = append(t.variants, r.Variant)
		t.samples[r.Variant] = r.Samples
		t.values[r.Variant] = map[string][]float64{}
		for _, s := range r.Samples {
			cpu := s.Window.UserSeconds + s.Window.SysSeconds
			m := map[string]float64{"wall_s": s.WallSeconds, "rss_mib": float64(s.PeakRSSBytes) / (1 << 20), "pages": float64(s.OK)}
			if s.OK > 0 {
				m["cpu_page_us"] = cpu / float64(s.OK) * 1e6
			}
			for k, x := range m {
				t.values[r.Variant][k] = append(t.values[r.Variant][k], x)
			}
		}
	}
	return t
}

func mapKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// dedupe keeps the first of each string, in order.
func dedupe(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func headLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// maxrssUnit is the unit of getrusage's ru_maxrss: kilobytes on Linux
// and the BSDs, bytes on macOS.
func maxrssUnit() int64 {
	if runtime.GOOS == "darwin" {
		return 1
	}
	return 1024
}
