package proc

import (
	"runtime"
	"runtime/metrics"
)

// GoMemory is what the Go runtime holds for the program's data: the live
// heap and the goroutine stacks. Unlike RSS it has no garbage waiting for
// a collection, no heap the collector keeps in reserve, no binary, and it
// is exact to the byte: the memory that grows with connections held.
type GoMemory struct {
	HeapLive int64 `json:"heap_live"` // bytes of live objects, as of the last GC
	Stacks   int64 `json:"stacks"`    // bytes of goroutine stacks (coroutines' included)
}

// ReadGoMemory collects the garbage first, so that HeapLive is what is
// alive now, then reads runtime/metrics.
func ReadGoMemory() GoMemory {
	runtime.GC()
	samples := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/heap/stacks:bytes"},
	}
	metrics.Read(samples)
	value := func(s metrics.Sample) int64 {
		if s.Value.Kind() != metrics.KindUint64 {
			return 0 // an older runtime without the metric
		}
		return int64(s.Value.Uint64())
	}
	return GoMemory{HeapLive: value(samples[0]), Stacks: value(samples[1])}
}
