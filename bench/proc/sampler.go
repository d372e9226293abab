package proc

import (
	"runtime"
	"sync"
	"time"
)

// Peaks are the most goroutines and OS threads a Sampler saw at once.
type Peaks struct {
	Goroutines int
	Threads    int
}

// Sampler watches the goroutine and thread counts from a goroutine of its
// own, because their peak (10 000 requests in flight, say) comes in the
// middle of a run, when the code being measured is too busy to look.
type Sampler struct {
	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	peak Peaks
}

// StartSampler samples every interval until Stop.
func StartSampler(interval time.Duration) *Sampler {
	s := &Sampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.sample()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				s.sample()
			}
		}
	}()
	return s
}

func (s *Sampler) sample() {
	// The sampler's own goroutine is not the workload's.
	g, th := runtime.NumGoroutine()-1, Threads()
	s.mu.Lock()
	s.peak.Goroutines = max(s.peak.Goroutines, g)
	s.peak.Threads = max(s.peak.Threads, th)
	s.mu.Unlock()
}

// Stop takes a last sample, stops the sampler and returns the peaks.
func (s *Sampler) Stop() Peaks {
	s.sample()
	close(s.stop)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}
