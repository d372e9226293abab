package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"loopkit/bench/proc"
	"loopkit/bench/report"
)

// million is S7, the million-pages article's question asked of the real
// crawler: what does a crawl cost in memory as it grows, and can it stop
// and go on? The demo site, split over hosts and served by a process of
// its own, is crawled at each size once (a long crawl varies little, and
// a million pages take a minute), by the crawler in a child process
// (million_child.go) writing -o. Per size: pages per second, the
// crawler's peak RSS and its bytes per URL, and -o checked against the
// site's own link graph and against what the site counted it served
// (million_check.go). At some sizes the crawl runs again with
// --state, is killed with SIGKILL once -o holds half the site, and the
// same command is run again: how long it takes to replay its journal and
// send its first request, and whether the two runs' -o hold the site's
// URLs, each once.
func (b *bench) million(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	var sizes []string
	for _, p := range z.s7Pages {
		sizes = append(sizes, report.FormatNumber(float64(p), 0))
	}
	sc := report.Scenario{
		ID: "S7",
		Title: fmt.Sprintf("a million pages: the real crawler on the demo site over %d hosts, at %s pages",
			z.s7Hosts, strings.Join(sizes, ", ")),
		Rounds: 1,
		Columns: []report.Column{
			{Metric: "pages", Header: "pages this run"},
			{Metric: "pages_s", Header: "pages/s"},
			{Metric: "rss_mib", Header: "peak RSS MiB", Digits: 1},
			{Metric: "b_url", Header: "peak RSS B/URL"},
			{Metric: "cpu_s", Header: "CPU s", Digits: 1},
			{Metric: "site_cpu_s", Header: "site CPU s", Digits: 1},
			{Metric: "other_pct", Header: "others' CPU %"},
			{Metric: "start_s", Header: "open + replay s", Digits: 3},
			{Metric: "first_s", Header: "first request s", Digits: 3},
			{Metric: "process_s", Header: "process s", Digits: 1},
			{Metric: "queued", Header: "queued peak (memory)"},
		},
		CheckHeader: "-o checked against the site",
	}
	dir, err := os.MkdirTemp("", "loopkit-bench-million-*")
	if err != nil {
		return sc, err
	}
	defer os.RemoveAll(dir)
	sc.Notes = millionNotes(b, z)
	for _, pages := range z.s7Pages {
		cases, notes, err := b.millionSize(ctx, dir, pages)
		if err != nil {
			return sc, err
		}
		sc.Cases = append(sc.Cases, cases...)
		sc.Notes = append(sc.Notes, notes...)
	}
	sc.Comparisons = millionComparisons(sc.Cases)
	return sc, nil
}

// millionSize crawls a site of pages, and kills and resumes a crawl of
// it if it is the size to.
func (b *bench) millionSize(ctx context.Context, dir string, pages int) ([]report.Case, []string, error) {
	z := b.sizes
	s, err := startSite(b.cfg.Self, siteOrder{Pages: pages, Hosts: z.s7Hosts}, b.meta.SiteProcs, b.siteCPUs)
	if err != nil {
		return nil, nil, err
	}
	defer s.close()
	want, err := b.expectedKeys(ctx, pages, z.s7Hosts, dir)
	if err != nil {
		return nil, nil, err
	}
	label := sizeLabel(pages)
	b.logf("S7 %s: the site has %d URLs a polite crawler fetches", label, len(want))
	out := filepath.Join(dir, "crawl.jsonl")
	one, c, err := b.crawlOnce(ctx, s, crawlOrder{Roots: s.roots, Output: out}, want, crawlVariant)
	if err != nil {
		return nil, nil, err
	}
	os.Remove(out)
	cases := []report.Case{{Label: label, Rows: []report.Row{crawlRow(one, c)}}}
	if !slices.Contains(z.s7Resume, pages) {
		return cases, nil, nil
	}
	rows, notes, err := b.killAndResume(ctx, s, dir, want, label)
	if err != nil {
		return nil, nil, err
	}
	cases = append(cases, report.Case{Label: label + ", --state, killed at half, then run again", Rows: rows})
	return cases, notes, nil
}

// crawlOnce runs one crawl to its end and compares its -o with the site's
// URLs. A crawl that fails is a sample with no Crawl, whose FirstError
// says why.
func (b *bench) crawlOnce(ctx context.Context, s *siteProcess, o crawlOrder, want []urlKey, variant string) (report.Sample, setCheck, error) {
	if err := s.reset(); err != nil {
		return report.Sample{}, setCheck{}, fmt.Errorf("resetting the site: %w", err)
	}
	b.noteLoad()
	w := openMachineWindow(s)
	p, err := b.startCrawl(ctx, o)
	if err != nil {
		return report.Sample{}, setCheck{}, err
	}
	first := p.awaitFirstRequest(s)
	sample, err := p.sample()
	if err != nil {
		if ctx.Err() != nil {
			return report.Sample{}, setCheck{}, ctx.Err()
		}
		b.logf("S7: %s", oneLine(err.Error()))
		return report.Sample{Variant: variant, Failed: 1, FirstError: err.Error()}, setCheck{}, nil
	}
	sample.Variant = variant
	run := sample.Crawl
	run.FirstRequestSeconds = first
	w.close(s, &sample.Window, run.CPUSeconds)
	if err := fillSite(s, run); err != nil {
		return report.Sample{}, setCheck{}, err
	}
	keys, bad, err := outputKeys(o.Output, newKeyer(s.roots))
	if err != nil {
		return report.Sample{}, setCheck{}, fmt.Errorf("reading -o: %w", err)
	}
	c := compareKeySets(keys, want, bad)
	run.Lines = c.lines
	b.logf("S7 %d pages in %.1f s, peak RSS %.1f MiB; -o: %s", run.Pages, run.CrawlSeconds, float64(sample.PeakRSSBytes)/(1<<20), c)
	return sample, c, nil
}

// crawlRow is the row of a crawl from the start: its -o must be the
// site's URLs, each once, and the site must have served each once.
func crawlRow(s report.Sample, c setCheck) report.Row {
	run := s.Crawl
	if run == nil {
		return millionRow(s, "the crawl FAILED: "+oneLine(s.FirstError))
	}
	check := c.String()
	if run.SitePages == int64(c.lines) && run.Pages == c.lines {
		check += fmt.Sprintf("; the site served exactly %s pages", report.FormatNumber(float64(run.SitePages), 0))
	} else {
		check += fmt.Sprintf("; BUT the site served %d pages, and the crawler made %d records", run.SitePages, run.Pages)
	}
	return millionRow(s, check)
}

// killAndResume crawls with --state until -o holds half the site, kills
// the crawl with SIGKILL, and runs the same crawl again to its end. Its
// -o and --state are its own, in a directory under dir removed after:
// another crawl's would be refused, or taken for half of this one.
func (b *bench) killAndResume(ctx context.Context, s *siteProcess, dir string, want []urlKey, label string) ([]report.Row, []string, error) {
	if err := s.reset(); err != nil {
		return nil, nil, fmt.Errorf("resetting the site: %w", err)
	}
	b.noteLoad()
	w := openMachineWindow(s)
	dir, err := os.MkdirTemp(dir, "resume-*")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	o := crawlOrder{Roots: s.roots, Output: filepath.Join(dir, "out.jsonl"), State: filepath.Join(dir, "state")}
	p, err := b.startCrawl(ctx, o)
	if err != nil {
		return nil, nil, err
	}
	first := p.awaitFirstRequest(s)
	seen, err := awaitLines(ctx, o.Output, len(want)/2, p.exited)
	killedAt := time.Since(p.started).Seconds()
	peak, _ := proc.PeakRSSOf(p.cmd.Process.Pid) // 0 where /proc is missing: n/a
	cpu, _ := proc.CPUOf(p.cmd.Process.Pid)      // likewise
	p.cmd.Process.Kill()                         // SIGKILL: no handler runs, nothing is flushed
	<-p.exited
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if p.err != nil { // it ended on its own: say why
			err = fmt.Errorf("%w: %v: %s", err, p.err, oneLine(p.stderr.String()))
		}
		b.logf("S7: %v", err)
		failed := report.Sample{Variant: killedVariant, Failed: 1, FirstError: err.Error()}
		return []report.Row{millionRow(failed, "NOT killed mid-crawl: "+err.Error())}, nil, nil
	}
	whole, err := countLines(o.Output)
	if err != nil {
		return nil, nil, err
	}
	killed := report.Sample{Variant: killedVariant, OK: whole, WallSeconds: killedAt, PeakRSSBytes: peak,
		Crawl: &report.CrawlRun{Pages: whole, Lines: whole, Killed: true, KilledAtLines: seen,
			CrawlSeconds: killedAt - first, FirstRequestSeconds: first, ProcessSeconds: killedAt, CPUSeconds: cpu.Seconds()}}
	w.close(s, &killed.Window, cpu.Seconds())
	if err := fillSite(s, killed.Crawl); err != nil {
		return nil, nil, err
	}
	rows := []report.Row{millionRow(killed, fmt.Sprintf("killed when -o had %s lines, %.1f s in; %s whole lines after the kill",
		report.FormatNumber(float64(seen), 0), killedAt, report.FormatNumber(float64(whole), 0)))}
	b.logf("S7 killed at %d lines, %.1f s in; running the same crawl again", seen, killedAt)

	again, c, err := b.crawlOnce(ctx, s, o, want, resumedVariant)
	if err != nil {
		return nil, nil, err
	}
	run := again.Crawl
	if run == nil {
		return append(rows, millionRow(again, "the crawl FAILED: "+oneLine(again.FirstError))), nil, nil
	}
	served := killed.Crawl.SitePages + run.SitePages
	refetched := served - int64(c.lines)
	bound := fmt.Sprintf("at most --max_tasks, %d", crawlMaxTasks)
	if refetched < 0 || refetched > crawlMaxTasks {
		bound = fmt.Sprintf("MORE THAN --max_tasks, %d", crawlMaxTasks)
	}
	rows = append(rows, millionRow(again, fmt.Sprintf("both runs' -o: %s; the site served %s pages over both runs: "+
		"%d fetched again (in flight at the kill; %s)", c, report.FormatNumber(float64(served), 0), refetched, bound)))
	var notes []string
	for _, n := range run.Notices {
		notes = append(notes, fmt.Sprintf("%s, the run after the kill said: %q.", label, strings.ReplaceAll(n, dir, "$TMP")))
	}
	notes = append(notes, fmt.Sprintf("%s, robots.txt: fetched %d times by the killed run, %d times by the run after it "+
		"(the journal keeps each host's rules).", label, killed.Crawl.SiteRobots, run.SiteRobots))
	return rows, notes, nil
}

// fillSite reads what the site served during the run.
func fillSite(s *siteProcess, run *report.CrawlRun) error {
	st, err := s.stats()
	if err != nil {
		return fmt.Errorf("reading the site's counters: %w", err)
	}
	run.SiteRobots = st.Paths["/robots.txt"]
	run.SitePages = st.Requests - run.SiteRobots
	return nil
}

// noteLoad keeps the machine's highest load before a run, as collect does.
func (b *bench) noteLoad() {
	var load float64
	if _, err := fmt.Sscan(proc.LoadAverage(), &load); err == nil {
		b.meta.LoadMax = max(b.meta.LoadMax, load)
	}
}

// oneLine is what a table cell can hold of a child's error: its first
// line and, for a panic, the first of loopkit's functions on its stack.
// The sample's FirstError keeps the whole of it, in the JSON.
func oneLine(msg string) string {
	lines := strings.Split(msg, "\n")
	out := strings.TrimSpace(lines[0])
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "loopkit/") {
			if i := strings.LastIndexByte(l, '('); i > 0 {
				l = l[:i] // the function, without its arguments
			}
			return out + " (in " + l + ")"
		}
	}
	return out
}
