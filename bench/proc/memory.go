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

// Allocs is what the program has allocated on the heap since it started:
// objects and bytes, as runtime/metrics counts them. Objects are counted
// as testing's -benchmem and AllocsPerRun count them — each tiny object
// (under 16 bytes, without pointers) once, though the runtime packs
// several into one block — so a benchmark's allocations per request and
// the harness's are the same number.
type Allocs struct {
	Objects int64
	Bytes   int64
}

// ReadAllocs reads the counts. It collects nothing and stops nothing: it
// may be called while the program runs at full speed.
func ReadAllocs() Allocs {
	samples := []metrics.Sample{
		{Name: "/gc/heap/allocs:objects"},      // every allocation, a tiny block as one
		{Name: "/gc/heap/tiny/allocs:objects"}, // the tiny objects packed into those blocks
		{Name: "/gc/heap/allocs:bytes"},
	}
	metrics.Read(samples)
	value := func(s metrics.Sample) int64 {
		if s.Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(s.Value.Uint64())
	}
	return Allocs{Objects: value(samples[0]) + value(samples[1]), Bytes: value(samples[2])}
}
