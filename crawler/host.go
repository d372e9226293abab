package crawler

import (
	"time"

	"loopkit/crawler/robots"
)

// item is one URL waiting in its host's queue: the chapter's
// (url, max_redirect) pair, with the link depth and the attempts made so
// far. Small fields, because a crawl may hold millions of them.
type item struct {
	url       string
	redirects int32 // redirects still allowed from here
	depth     int32
	tries     int32 // attempts already made
	queuedMS  int32 // loop time it (re)entered its host's queue, in ms: for timelines; fits the padding
}

// robotsState is how far a host is with its robots.txt.
type robotsState uint8

const (
	robotsNeeded   robotsState = iota // the host's next job is fetching robots.txt
	robotsFetching                    // in flight: the host's pages wait for it
	robotsKnown                       // rules are known (or robots.txt is off)
)

// host is one origin (scheme://host:port): the unit of robots.txt (RFC
// 9309 §2.3 scopes a robots.txt to exactly that) and of the frontier's
// queues. Its URLs wait in its own queue; the frontier hands one out only
// when the host is ready. Politeness is its server's (server.go), which
// it may share with another origin: http and https of one site.
type host struct {
	origin    string
	server    *server
	seq       int // creation order: breaks ties in the ready heap
	queue     deque[item]
	heapIndex int // position in the ready heap; -1 when not in it

	robots      robotsState
	robotsItem  item // the robots.txt fetch: its target (after redirects) and tries
	rules       *robots.Rules
	robotsUntil time.Duration // loop time after which robots.txt is fetched again

	// failure, once set, says why nothing more is fetched from this host
	// (its robots.txt could not be read, or it asked for a Retry-After
	// beyond --max_retry_after); every URL of it is recorded with it.
	failure     string
	failureKind string // the records' error_kind
	pages       int    // URLs accepted for it, for --max_pages_per_host
}

// ready reports whether the host may hand out a job once its server's
// time has come: it has work, its server is under its concurrency limit,
// and it is not waiting for its robots.txt.
func (h *host) ready() bool {
	if h.failure != "" || h.server.inFlight >= h.server.pace.limit {
		return false
	}
	switch h.robots {
	case robotsNeeded:
		return true
	case robotsKnown:
		return h.queue.len() > 0
	}
	return false
}

// hostHeap orders ready hosts by the time their server may start its next
// request: the frontier's answer to "who goes next" is its top, so
// finding work never scans the hosts that must wait.
type hostHeap []*host

func (q hostHeap) Len() int { return len(q) }
func (q hostHeap) Less(i, j int) bool {
	if a, b := q[i].server.nextStart, q[j].server.nextStart; a != b {
		return a < b
	}
	return q[i].seq < q[j].seq
}
func (q hostHeap) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].heapIndex, q[j].heapIndex = i, j
}
func (q *hostHeap) Push(x any) {
	h := x.(*host)
	h.heapIndex = len(*q)
	*q = append(*q, h)
}
func (q *hostHeap) Pop() any {
	old := *q
	h := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	h.heapIndex = -1
	return h
}
