package harness

import (
	"fmt"
	"strings"

	"loopkit/bench/baseline"
	"loopkit/bench/conns"
	"loopkit/bench/floor"
	"loopkit/bench/reactor"
	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// Variant is one way of writing the client.
type Variant struct {
	report.Variant
	Run workload.Func
	// Crawls says the variant can run S4; the floors cannot.
	Crawls bool
	// Loop says the variant runs on loopkit's loop, and probes its stalls
	// there; the others are probed by a goroutine.
	Loop bool
	// Only names the one scenario the variant runs in; "" means all.
	Only string
}

// The kinds of variant, which colour the charts.
const (
	kindLoop        = "loop"
	kindConns       = "goroutines, loopkit HTTP"
	kindNetHTTP     = "net/http"
	kindFloor       = "floor"
	refVariant      = "worker-pool"     // the ratio columns' reference: the strongest net/http answer
	fairVariant     = "conn-goroutines" // the fair goroutine answer: same HTTP code as the loop
	loopVariant     = "reactor-callbacks"
	floorEpoll      = "raw-epoll"
	floorRoutine    = "raw-goroutines"
	parseOffVariant = "reactor-parse-off"
)

// Variants are the ten clients, in the order of the tables: loopkit's
// HTTP code on the loop, then the same code on goroutines (the scheduler
// group), net/http on the same three goroutine schedules (the HTTP client
// group), and the two floors.
var Variants = []Variant{
	{report.Variant{Name: "reactor-callbacks", Label: "loop: callbacks", Short: "cb", Kind: kindLoop}, reactor.Callbacks, true, true, ""},
	{report.Variant{Name: "reactor-tasks", Label: "loop: tasks", Short: "tasks", Kind: kindLoop}, reactor.Tasks, true, true, ""},
	{report.Variant{Name: "reactor-parse-off", Label: "loop: callbacks, parsing off the loop", Short: "cb+parse", Kind: kindLoop}, reactor.CallbacksParseOff, true, true, "S4"},
	{report.Variant{Name: "reactor-2-loops", Label: "loop: callbacks, 2 loops", Short: "cb×2", Kind: kindLoop}, onLoops(2, false), false, true, "S2"},
	{report.Variant{Name: "reactor-2-loops-locked", Label: "loop: callbacks, 2 loops, LockOSThread", Short: "cb×2L", Kind: kindLoop}, onLoops(2, true), false, true, "S2"},
	{report.Variant{Name: "conn-goroutines", Label: "loopkit HTTP: goroutine per conn", Short: "g/conn", Kind: kindConns}, conns.PerConn, true, false, ""},
	{report.Variant{Name: "conn-semaphore", Label: "loopkit HTTP: channel semaphore", Short: "sem·lk", Kind: kindConns}, conns.Semaphore, true, false, ""},
	{report.Variant{Name: "conn-per-request", Label: "loopkit HTTP: goroutine per request", Short: "g/req·lk", Kind: kindConns}, conns.PerRequest, true, false, ""},
	{report.Variant{Name: "worker-pool", Label: "net/http: worker pool", Short: "pool", Kind: kindNetHTTP}, baseline.WorkerPool, true, false, ""},
	{report.Variant{Name: "channel-semaphore", Label: "net/http: channel semaphore", Short: "sem", Kind: kindNetHTTP}, baseline.ChannelSemaphore, true, false, ""},
	{report.Variant{Name: "goroutine-per-request", Label: "net/http: goroutine per request", Short: "g/req", Kind: kindNetHTTP}, baseline.GoroutinePerRequest, true, false, ""},
	{report.Variant{Name: "raw-epoll", Label: "floor: raw epoll, one thread", Short: "epoll", Kind: kindFloor}, floor.Epoll, false, false, ""},
	{report.Variant{Name: "raw-goroutines", Label: "floor: raw goroutine per conn", Short: "raw g", Kind: kindFloor}, floor.Goroutines, false, false, ""},
}

// onLoops is CallbacksOnLoops on n loops.
func onLoops(n int, lock bool) workload.Func {
	return func(job workload.Job, m *workload.Meter) error {
		job.Loops, job.LockOSThread = n, lock
		return reactor.CallbacksOnLoops(job, m)
	}
}

// Lookup finds a variant by name.
func Lookup(name string) (Variant, error) {
	for _, v := range Variants {
		if v.Name == name {
			return v, nil
		}
	}
	return Variant{}, fmt.Errorf("unknown variant %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names are the variants' names, in table order.
func Names() []string {
	var out []string
	for _, v := range Variants {
		out = append(out, v.Name)
	}
	return out
}
