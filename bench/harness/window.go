package harness

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"loopkit/bench/proc"
	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// edge is everything read at one end of a run's measured window.
type edge struct {
	at                time.Duration
	usage             proc.Usage
	allocs            proc.Allocs
	ok, failed        int64
	site, machine     time.Duration
	siteOK, machineOK bool
}

func readEdge(m *workload.Meter, sitePID int) edge {
	e := edge{at: m.Now(), usage: proc.Now(), allocs: proc.ReadAllocs()}
	e.ok, e.failed = m.Counts()
	if sitePID > 0 {
		e.site, e.siteOK = proc.CPUOf(sitePID)
	}
	e.machine, e.machineOK = proc.MachineBusy()
	return e
}

// window takes the two edges of a run's measured window. A timed job's
// edges are read by a goroutine of their own at Warmup and at
// Warmup+Duration, whatever the client is doing then; a counted job's
// window is the whole run.
type window struct {
	m       *workload.Meter
	sitePID int
	mu      sync.Mutex
	edges   []edge
	stop    chan struct{}
	done    chan struct{}
}

func startWindow(m *workload.Meter, job workload.Job, sitePID int) *window {
	w := &window{m: m, sitePID: sitePID, stop: make(chan struct{}), done: make(chan struct{})}
	if !job.Timed() {
		w.edges = append(w.edges, readEdge(m, sitePID))
		close(w.done)
		return w
	}
	go func() {
		defer close(w.done)
		for _, at := range []time.Duration{job.Warmup, job.Warmup + job.Duration} {
			select {
			case <-w.stop:
				return
			case <-time.After(at - m.Now()):
			}
			e := readEdge(m, sitePID)
			w.mu.Lock()
			w.edges = append(w.edges, e)
			w.mu.Unlock()
		}
	}()
	return w
}

// finish reads the missing edges now (a counted job's end, or a timed
// job that ended early) and returns the window.
func (w *window) finish() report.Window {
	close(w.stop)
	<-w.done
	for len(w.edges) < 2 {
		w.edges = append(w.edges, readEdge(w.m, w.sitePID))
	}
	a, b := w.edges[0], w.edges[1]
	win := report.Window{
		Seconds:     (b.at - a.at).Seconds(),
		OK:          b.ok - a.ok,
		Failed:      b.failed - a.failed,
		UserSeconds: (b.usage.User - a.usage.User).Seconds(),
		SysSeconds:  (b.usage.System - a.usage.System).Seconds(),
		Voluntary:   b.usage.Voluntary - a.usage.Voluntary,
		Involuntary: b.usage.Involuntary - a.usage.Involuntary,
		Allocs:      b.allocs.Objects - a.allocs.Objects,
		AllocBytes:  b.allocs.Bytes - a.allocs.Bytes,
	}
	if a.siteOK && b.siteOK && a.machineOK && b.machineOK {
		win.Measured = true
		win.SiteCPUSeconds = (b.site - a.site).Seconds()
		own := win.UserSeconds + win.SysSeconds
		// Ticks of 10 ms on three clocks: a small negative is rounding.
		win.OtherCPUSeconds = max(0, (b.machine-a.machine).Seconds()-own-win.SiteCPUSeconds)
	}
	return win
}

// memoryProbe measures the client's Go memory before its job and when
// the harness signals (SIGUSR1) that every connection is open and
// waiting: the plateau of S3. The signal comes from outside because only
// the site knows when the connections are really established.
type memoryProbe struct {
	start   time.Time
	signals chan os.Signal
	done    chan struct{}
	mem     report.Memory
}

func startMemoryProbe() *memoryProbe {
	p := &memoryProbe{start: time.Now(), signals: make(chan os.Signal, 1), done: make(chan struct{})}
	before := proc.ReadGoMemory()
	p.mem.HeapBefore, p.mem.StacksBefore = before.HeapLive, before.Stacks
	p.mem.RSSBefore, _ = proc.RSS()
	signal.Notify(p.signals, syscall.SIGUSR1)
	go func() {
		defer close(p.done)
		if _, ok := <-p.signals; !ok {
			return
		}
		at := proc.ReadGoMemory()
		p.mem.AtSeconds = time.Since(p.start).Seconds()
		p.mem.HeapPlateau, p.mem.StacksPlateau = at.HeapLive, at.Stacks
		p.mem.RSSPlateau, _ = proc.RSS()
	}()
	return p
}

// stop returns the measurements, nil if the plateau was never signalled.
func (p *memoryProbe) stop() *report.Memory {
	signal.Stop(p.signals)
	close(p.signals)
	<-p.done
	if p.mem.AtSeconds == 0 {
		return nil
	}
	return &p.mem
}
