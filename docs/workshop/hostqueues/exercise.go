package hostqueues

import "time"

// Frontier holds URLs in per-host queues and hands one out only when its
// host may start a request. Times are on the loop's clock: durations since
// the loop began, as loop.Time returns.
type Frontier struct {
	// TODO: the hosts by name (each with its queue, its requests in
	// flight and its next allowed start), and the order they were first
	// seen in.
}

// New returns an empty frontier that spaces the starts of two requests to
// one host by at least gap, and lets at most perHost be in flight to one
// host at once.
func New(gap time.Duration, perHost int) *Frontier {
	return &Frontier{}
}

// Push queues url at the back of host's queue.
func (f *Frontier) Push(host, url string) {
	// TODO
}

// Next hands out the next job at time now, if a host may start one.
func (f *Frontier) Next(now time.Duration) (Job, bool) {
	return Job{}, false // TODO
}

// Done says a job of host has finished: it is no longer in flight.
func (f *Frontier) Done(host string) {
	// TODO
}

// HoldUntil makes host wait: nothing of it starts before t (Retry-After,
// Crawl-delay).
func (f *Frontier) HoldUntil(host string, t time.Duration) {
	// TODO
}

// Wake is when Next may next hand out a job, and false if no host could
// hand one out however long one waited (nothing queued, or every host
// with work at its limit until a Done).
func (f *Frontier) Wake() (time.Duration, bool) {
	return 0, false // TODO
}
