package harness

import (
	"fmt"
	"strings"

	"loopkit/bench/baseline"
	"loopkit/bench/reactor"
	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// Variant is one way of writing the client.
type Variant struct {
	report.Variant
	Baseline bool // a net/http variant, which ratios divide by
	Run      workload.Func
}

// Variants are the five clients, in the order of the tables: the two on
// loopkit first, then the net/http ones, strongest (worker pool) first.
var Variants = []Variant{
	{report.Variant{Name: "reactor-callbacks", Label: "reactor, callbacks", Short: "cb"}, false, reactor.Callbacks},
	{report.Variant{Name: "reactor-tasks", Label: "reactor, tasks", Short: "tasks"}, false, reactor.Tasks},
	{report.Variant{Name: "worker-pool", Label: "net/http worker pool", Short: "pool"}, true, baseline.WorkerPool},
	{report.Variant{Name: "channel-semaphore", Label: "net/http channel semaphore", Short: "sem"}, true, baseline.ChannelSemaphore},
	{report.Variant{Name: "goroutine-per-request", Label: "net/http goroutine per request", Short: "g/req"}, true, baseline.GoroutinePerRequest},
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
