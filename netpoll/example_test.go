package netpoll_test

import (
	"fmt"
	"time"

	"loopkit/netpoll"
)

// The bare readiness API: open the best poller, wake it, and see Wait
// return early with no fd events (the wake-up is the poller's own).
func Example() {
	p, err := netpoll.Open("")
	if err != nil {
		panic(err)
	}
	defer p.Close()
	go p.Wake()
	start := time.Now()
	events, err := p.Wait(10 * time.Second)
	fmt.Println(len(events), err, time.Since(start) < 5*time.Second)
	// Output: 0 <nil> true
}
