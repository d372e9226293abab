package stats

import (
	"encoding/json"
	"math"
	"math/bits"
	"sync/atomic"
	"time"
)

// Histogram counts durations in buckets whose width is at most 1/128 of
// their value, so a percentile read from it is within 0.8 % of the true
// one, at any scale from a nanosecond to hours, in a fixed 39 KiB. It is
// the idea of Gil Tene's HdrHistogram — linear sub-buckets inside each
// power of two — written small: record with one atomic add, from any
// number of goroutines; no lock, no allocation.
//
// The layout: values below 256 ns have a bucket each; above, the range
// [2^(7+k), 2^(8+k)) is cut into 128 buckets of width 2^k.
type Histogram struct {
	counts [numBuckets]atomic.Uint64
	max    atomic.Int64
}

const (
	subBits    = 8
	half       = 1 << (subBits - 1) // sub-buckets per power of two
	maxShift   = 36                 // the top octave: up to 2^44 ns, about 4.9 hours
	numBuckets = 2*half + maxShift*half
	maxValue   = int64(1)<<(subBits+maxShift) - 1
)

// bucketOf is the bucket a value (in ns) falls in; values beyond the top
// are counted in the last bucket (and still seen by Max).
func bucketOf(v int64) int {
	if v < 0 {
		v = 0
	}
	if v > maxValue {
		v = maxValue
	}
	if v < 2*half {
		return int(v)
	}
	k := bits.Len64(uint64(v)) - subBits // ≥ 1: the bucket width is 2^k
	return 2*half + (k-1)*half + int(v>>k) - half
}

// bounds are the smallest and largest value bucket i holds.
func bounds(i int) (lo, hi int64) {
	if i < 2*half {
		return int64(i), int64(i)
	}
	k := (i-2*half)/half + 1
	m := int64((i-2*half)%half + half)
	return m << k, m<<k + (1<<k - 1)
}

// Record counts one duration.
func (h *Histogram) Record(d time.Duration) {
	v := int64(d)
	h.counts[bucketOf(v)].Add(1)
	for {
		old := h.max.Load()
		if v <= old || h.max.CompareAndSwap(old, v) {
			return
		}
	}
}

// Count is the number of durations recorded.
func (h *Histogram) Count() uint64 {
	var n uint64
	for i := range h.counts {
		n += h.counts[i].Load()
	}
	return n
}

// Max is the longest duration recorded, exactly.
func (h *Histogram) Max() time.Duration { return time.Duration(h.max.Load()) }

// Merge adds o's counts to h's: the rounds of a variant pooled.
func (h *Histogram) Merge(o *Histogram) {
	for i := range o.counts {
		if n := o.counts[i].Load(); n > 0 {
			h.counts[i].Add(n)
		}
	}
	if m := o.max.Load(); m > h.max.Load() {
		h.max.Store(m)
	}
}

// Percentile is the duration that a fraction q of the recorded ones do not
// exceed (q = 0.99 for p99): the nearest-rank percentile, read as the top
// of its bucket so that it never understates, and never above the exact
// maximum. With nothing recorded it is 0 and ok is false.
func (h *Histogram) Percentile(q float64) (d time.Duration, ok bool) {
	total := h.Count()
	if total == 0 {
		return 0, false
	}
	rank := uint64(math.Ceil(q * float64(total)))
	rank = max(rank, 1)
	var seen uint64
	for i := range h.counts {
		seen += h.counts[i].Load()
		if seen >= rank {
			_, hi := bounds(i)
			return time.Duration(min(hi, h.max.Load())), true
		}
	}
	return h.Max(), true
}

// wire is a histogram in JSON: only its non-empty buckets.
type wire struct {
	Buckets [][2]uint64 `json:"buckets"` // [index, count]
	Max     int64       `json:"max_ns"`
}

// MarshalJSON writes the non-empty buckets, so that a child process can
// hand its histogram to the harness and results.json keeps every one.
func (h *Histogram) MarshalJSON() ([]byte, error) {
	w := wire{Buckets: [][2]uint64{}, Max: h.max.Load()}
	for i := range h.counts {
		if n := h.counts[i].Load(); n > 0 {
			w.Buckets = append(w.Buckets, [2]uint64{uint64(i), n})
		}
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (h *Histogram) UnmarshalJSON(data []byte) error {
	var w wire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	for _, b := range w.Buckets {
		if b[0] < numBuckets {
			h.counts[b[0]].Store(b[1])
		}
	}
	h.max.Store(w.Max)
	return nil
}
