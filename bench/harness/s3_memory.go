package harness

import (
	"context"
	"fmt"
	"math"
	"time"

	"loopkit/bench/proc"
	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// memory is S3: N requests in flight at once, each held by the site for a
// long while, to see what an open connection with a request in flight
// costs each client. It is measured once the connections are open — the
// plateau — in three parts kept apart, because they answer different
// questions:
//
//   - Go memory: the live heap and the goroutine stacks, read from
//     runtime/metrics right after a forced GC, minus the same before the
//     job started. It is what the client's design costs per connection,
//     without the garbage and GC headroom that RSS also holds.
//   - RSS, the same difference: what the OS sees, headroom included.
//   - the kernel's socket memory, machine-wide: the same for every
//     variant, both ends of each loopback connection.
//
// Each is divided by the connections the site holds a request on at that
// moment, not by the number the client was asked for: a connect storm
// leaves some still in the accept backlog, and they must not count.
func (b *bench) memory(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	sc := report.Scenario{
		ID: "S3",
		Title: fmt.Sprintf("memory: %s requests in flight at once, each held %s s by the site",
			report.FormatNumber(float64(z.s3N), 0), report.FormatNumber(float64(z.s3DelayMS)/1000, 0)),
		Rounds:    z.s3Rounds,
		Reference: refVariant,
		Columns: []report.Column{
			{Metric: "go_kib", Header: "Go heap+stacks KiB/conn", Digits: 2, CI: true, Ratio: true},
			{Metric: "heap_kib", Header: "heap (live)", Digits: 2},
			{Metric: "stack_kib", Header: "stacks (reserved)", Digits: 2},
			{Metric: "rss_kib", Header: "RSS KiB/conn", Digits: 1},
			{Metric: "kbuf_kib", Header: "kernel buffers KiB/conn", Digits: 2},
			{Metric: "kobj_kib", Header: "kernel sockets KiB/conn", Digits: 2},
			{Metric: "established", Header: "established"},
			{Metric: "at_s", Header: "plateau at s", Digits: 1},
			{Metric: "goroutines", Header: "goroutines"},
			{Metric: "threads", Header: "threads"},
			{Metric: "failed", Header: "failed"},
		},
	}
	job := workload.Job{Kind: workload.Fetch, URL: b.delayURL(z.s3DelayMS), N: z.s3N}
	samples, err := b.collect(ctx, "S3", z.s3Rounds, b.variants, job, runOpts{memory: true})
	if err != nil {
		return sc, err
	}
	t := b.table(samples, memoryMetrics)
	label := concurrency(0)
	sc.Cases = append(sc.Cases, report.Case{Label: label, Rows: t.rows(refVariant, "go_kib")})
	sc.Comparisons = t.compare(label, "go_kib", memoryPairs)
	sc.Notes = append(sc.Notes,
		"Go heap+stacks = (live heap + goroutine stacks at the plateau − the same before the job) / established, "+
			"from runtime/metrics after a forced GC in the client; RSS the same difference of VmRSS, garbage and GC "+
			"headroom included. \"established\" is the requests the site held at that moment, counted by the site.",
		"heap (live) is what live objects occupy after a GC (/gc/heap/live:bytes): memory allocated, not memory "+
			"resident — RSS, apart, is what the OS holds. stacks (reserved) is what the runtime has reserved for "+
			"goroutine stacks (/memory/classes/heap/stacks:bytes): each goroutine's whole stack, 8 KiB once it has "+
			"grown, however little of it is in use; coroutines' stacks are in it too.",
		"Kernel: the growth of /proc/net/sockstat's TCP buffer pages and of the TCP and socket-inode slabs "+
			"(/proc/slabinfo), machine-wide, per established connection: both ends of every loopback connection, "+
			"the same for every variant.",
		"All requests start at once; the site's accept backlog (net.core.somaxconn) is finite, so part of a "+
			"connect storm waits for SYN retransmits (1 s, then 3 s). The plateau is the moment the site holds "+
			"all of them, or 70 % of the hold time, whichever comes first.")
	if s := firstMeasured(samples); s != nil {
		sc.Notes = append(sc.Notes, fmt.Sprintf("File descriptors, per client process: soft limit %d raised to %d (hard limit %d).",
			s.FDSoft, s.FDRaised, s.FDHard))
	}
	sc.Notes = append(sc.Notes, failureNotes(samples, b.variants)...)
	return sc, nil
}

func memoryMetrics(s report.Sample) map[string]float64 {
	m := common(s)
	keys := []string{"go_kib", "heap_kib", "stack_kib", "rss_kib", "kbuf_kib", "kobj_kib", "established", "at_s"}
	for _, k := range keys {
		m[k] = math.NaN()
	}
	mem := s.Memory
	if mem == nil || mem.Established <= 0 {
		return m
	}
	per := func(after, before int64) float64 { return float64(after-before) / float64(mem.Established) / 1024 }
	m["heap_kib"] = per(mem.HeapPlateau, mem.HeapBefore)
	m["stack_kib"] = per(mem.StacksPlateau, mem.StacksBefore)
	m["go_kib"] = m["heap_kib"] + m["stack_kib"]
	m["rss_kib"] = per(mem.RSSPlateau, mem.RSSBefore)
	m["kbuf_kib"] = per(mem.KernelBuffersPlateau, mem.KernelBuffersBefore)
	if mem.KernelObjectsPlateau > 0 {
		m["kobj_kib"] = per(mem.KernelObjectsPlateau, mem.KernelObjectsBefore)
	}
	m["established"] = float64(mem.Established)
	m["at_s"] = mem.AtSeconds
	return m
}

// memoryPairs are S3's comparisons: per connection, what a design holds.
var memoryPairs = []pair{
	{"scheduler", "reactor-callbacks", fairVariant, "loop callbacks ÷ goroutine per conn, same HTTP code"},
	{"scheduler", "reactor-tasks", fairVariant, "loop tasks (a coroutine stack each) ÷ goroutine per conn"},
	{"HTTP client", refVariant, fairVariant, "net/http ÷ loopkit's HTTP code, goroutine per conn"},
	{"HTTP client", "channel-semaphore", "conn-semaphore", "net/http ÷ loopkit's HTTP code, channel semaphore"},
	{"floor", floorEpoll, floorRoutine, "raw epoll ÷ raw goroutine per conn"},
}

// plateauReading is what the harness read when it signalled the plateau.
type plateauReading struct {
	established int64
	kernel      proc.KernelSockets
}

// awaitPlateau waits until the site holds a request on every connection
// the job opens, or until 70 % of the site's hold time has passed, then
// reads the kernel's socket memory and tells the child to measure its
// own. It returns nil if there was nothing to measure.
func (b *bench) awaitPlateau(p *variantProcess, job workload.Job) *plateauReading {
	deadline := time.Now().Add(time.Duration(float64(b.sizes.s3DelayMS)*0.7) * time.Millisecond)
	var inFlight int64
	for {
		st, err := b.site.stats()
		if err == nil {
			inFlight = st.InFlight
		}
		if inFlight >= int64(job.N) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if inFlight == 0 {
		return nil // the child never got going; a signal might kill it before it listens
	}
	k, _ := proc.ReadKernelSockets()
	if p.plateau() != nil {
		return nil
	}
	return &plateauReading{established: inFlight, kernel: k}
}

// fill completes the child's memory sample with what the harness read.
func (r *plateauReading) fill(m *report.Memory, before proc.KernelSockets) {
	m.Established = r.established
	m.KernelBuffersBefore, m.KernelBuffersPlateau = before.BufferBytes, r.kernel.BufferBytes
	m.KernelObjectsBefore, m.KernelObjectsPlateau = before.ObjectBytes, r.kernel.ObjectBytes
}

// firstMeasured is the first sample of any variant that ran.
func firstMeasured(samples map[string][]report.Sample) *report.Sample {
	for _, ss := range samples {
		for i := range ss {
			if ss[i].WallSeconds > 0 {
				return &ss[i]
			}
		}
	}
	return nil
}
