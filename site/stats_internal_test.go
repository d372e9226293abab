package site

import (
	"fmt"
	"sync"
	"testing"
)

// The counters take no lock, yet concurrent requests lose no count: what
// goroutines counted at once adds up, per path and in all.
func TestCountersAddUpUnderConcurrency(t *testing.T) {
	var c counters
	c.paths.Store(newPathTable())
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				c.begin(fmt.Sprintf("/p%d", (g+i)%5))
				c.end()
			}
		}()
	}
	wg.Wait()
	st := c.snapshot()
	total := int64(0)
	for _, n := range st.Paths {
		total += n
	}
	if st.Requests != 4000 || total != 4000 || len(st.Paths) != 5 || st.InFlight != 0 {
		t.Fatalf("requests %d, per path %v (sum %d), in flight %d", st.Requests, st.Paths, total, st.InFlight)
	}
	if st.PeakInFlight < 1 || st.PeakInFlight > 8 {
		t.Errorf("peak in flight %d with 8 goroutines", st.PeakInFlight)
	}
}

// A client asking for endless new paths cannot grow the table past its bound.
func TestPathTableIsBounded(t *testing.T) {
	tab := newPathTable()
	tab.distinct.Store(maxPaths) // as if full
	tab.add("/new")
	if _, ok := tab.counts.Load("/new"); ok {
		t.Fatal("a path was added to a full table")
	}
	if n, ok := tab.counts.Load(otherPaths); !ok || n.(interface{ Load() int64 }).Load() != 1 {
		t.Fatal("the overflow was not counted under " + otherPaths)
	}
}
