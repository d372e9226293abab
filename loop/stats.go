package loop

import (
	"math"
	"math/bits"
	"reflect"
	"runtime"
	"time"

	"loopkit/future"
)

// Stats is what a loop created with Options.Stats (or Options.Trace) has
// measured since New. Its headline is the loop's worst stall: while one
// callback runs, no other callback, timer or socket of the loop is served,
// so Longest is the longest that every connection of the loop had to wait
// because of the loop itself. (asyncio's debug mode logs each callback
// over 100 ms; Node.js's monitorEventLoopDelay keeps a histogram like
// Durations.) Without Options.Stats every field is zero.
type Stats struct {
	Iterations uint64        // turns of the loop
	Waits      uint64        // turns that called the poller (a busy turn may skip its zero-timeout poll)
	Asleep     time.Duration // total time inside the poller's Wait: mostly the loop's idle time
	Callbacks  uint64        // callbacks run: the ready queue, timers, posted ones, readers and writers
	Busy       time.Duration // total time running them
	Longest    time.Duration // the longest single callback
	// LongestFunc names the function that ran for Longest, as the Go
	// runtime names it: "loopkit/crawler/http1.(*conn).onReadable-fm" for
	// a reader, but "loopkit/task.(*Task[...]).step.func3" for any task's
	// step — the loop cannot see which body ran inside it.
	LongestFunc string
	Durations   Histogram // how long each callback ran
}

// observer is the loop's instrument panel, present only when Options.Stats
// or Options.Trace asked for it: with it nil, the loop's cost is one nil
// check per callback and two per iteration (BenchmarkIteration measures it).
type observer struct {
	now       func() time.Duration // the loop's clock; tests substitute their own
	stats     Stats
	longestPC uintptr

	trace func(*Iteration) // nil: statistics only, no per-iteration record
	it    Iteration        // the record being filled
	itPC  uintptr          // the function of it.Longest
	names map[uintptr]string

	// last is the latest clock reading of the turn: the end of the last
	// callback, of the wait, or the turn's start. A callback's time runs
	// from it, so back-to-back callbacks cost one clock read each, not
	// two; the loop's own bookkeeping between them (a few map lookups)
	// is charged to the next one.
	last   time.Duration
	inTurn bool
}

func newObserver(l *Loop, trace func(*Iteration)) *observer {
	return &observer{now: l.Time, trace: trace, names: make(map[uintptr]string)}
}

// Stats returns what the loop has measured (see Stats). It is a copy: the
// loop goes on counting.
func (l *Loop) Stats() Stats {
	if l.obs == nil {
		return Stats{}
	}
	s := l.obs.stats
	s.LongestFunc = l.obs.funcName(l.obs.longestPC)
	return s
}

// timedCallback runs fn, with a recover of its own, and records how long
// it took: one read of the monotonic clock (35 ns on this project's
// 2-core VM, whose clock is kvm-clock; under 20 ns on most hardware).
func (o *observer) timedCallback(l *Loop, fn future.Runner) {
	start := o.last
	if !o.inTurn {
		start = o.now() // Close's hooks: the last reading is from long ago
	}
	code := codeOf(fn) // asked now: a future forgets a callback as it runs it
	l.callGuarded(fn)
	o.last = o.now()
	d := o.last - start
	if o.trace != nil {
		// Traced, every callback is kept: its code's address now, its
		// name (a map lookup) once per turn, in emit.
		o.it.Calls = append(o.it.Calls, Call{Start: start, End: o.last, pc: funcPC(code)})
	}
	o.stats.Callbacks++
	o.stats.Busy += d
	o.stats.Durations.Add(d)
	if d > o.stats.Longest {
		o.stats.Longest, o.longestPC = d, funcPC(code)
	}
	o.it.Callbacks++
	o.it.Busy += d
	if d > o.it.Longest {
		o.it.Longest, o.itPC = d, funcPC(code)
	}
}

// codeOf is what a callback is about to run, to name it by: the func
// itself for CallSoon's; for a future running a done callback, or a due
// timer, the function they hold (they say, through CallbackFunc); for any
// other value that runs itself, the value, named by its Run method.
func codeOf(r future.Runner) any {
	switch r := r.(type) {
	case callSoon:
		return (func())(r)
	case interface{ CallbackFunc() any }:
		return r.CallbackFunc()
	}
	return r
}

// funcPC is the entry of code, which names it. Only a new longest
// callback pays for the lookup.
func funcPC(code any) uintptr {
	v := reflect.ValueOf(code)
	if v.Kind() == reflect.Func {
		return v.Pointer()
	}
	if m, ok := v.Type().MethodByName("Run"); ok {
		return m.Func.Pointer()
	}
	return 0
}

func (o *observer) funcName(pc uintptr) string {
	if pc == 0 {
		return ""
	}
	name, ok := o.names[pc]
	if !ok {
		if f := runtime.FuncForPC(pc); f != nil {
			name = f.Name()
		}
		o.names[pc] = name
	}
	return name
}

// Histogram counts durations in log-linear buckets, as HdrHistogram does:
// eight buckets per power of two, so a bucket is at most an eighth as wide
// as the values in it, and a percentile read from it is at most 12.5 %
// above the truth. It takes 4 KiB and no allocation per sample; the exact
// maximum is kept beside it.
type Histogram struct {
	counts [numBuckets]uint64
	total  uint64
	max    time.Duration
}

const (
	subBits    = 3 // 2³ = 8 buckets per power of two
	exact      = 2 << subBits
	numBuckets = exact + (64-subBits-1)<<subBits
)

// bucket is where a duration of v nanoseconds is counted. Values under 16
// have a bucket each; above, the bucket is the value's top four bits
// (always 1xxx) and how far they were shifted.
func bucket(v uint64) int {
	if v < exact {
		return int(v)
	}
	shift := bits.Len64(v) - subBits - 1
	return exact + (shift-1)<<subBits + int(v>>shift) - 1<<subBits
}

// bucketTop is the largest value counted in bucket i.
func bucketTop(i int) uint64 {
	if i < exact {
		return uint64(i)
	}
	shift := (i-exact)>>subBits + 1
	top := uint64(i-exact)&(1<<subBits-1) + 1<<subBits
	next := (top + 1) << shift // the next bucket's first value
	if next == 0 {
		return math.MaxUint64 // there is no next bucket: 1<<64 wrapped to 0
	}
	return next - 1
}

// Add counts one duration (a negative one as zero).
func (h *Histogram) Add(d time.Duration) {
	h.counts[bucket(uint64(max(d, 0)))]++
	h.total++
	h.max = max(h.max, d)
}

// Count is how many durations were added.
func (h *Histogram) Count() uint64 { return h.total }

// Max is the longest duration added, exactly.
func (h *Histogram) Max() time.Duration { return h.max }

// Percentile returns a duration that at least q (0 < q ≤ 1) of the counted
// ones do not exceed: the top of the bucket where the q-th one falls, but
// never more than Max. So Percentile(0.99) is the p99, at most 12.5 % high;
// Percentile(1) is Max. With nothing counted it is 0.
func (h *Histogram) Percentile(q float64) time.Duration {
	if h.total == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.total)))
	rank = min(max(rank, 1), h.total)
	var seen uint64
	for i, c := range h.counts {
		if seen += c; seen >= rank {
			return min(time.Duration(min(bucketTop(i), math.MaxInt64)), h.max)
		}
	}
	return h.max
}
