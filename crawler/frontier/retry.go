package frontier

import (
	"container/heap"
	"time"
)

// Requeue puts j's URL back at the front of its host's queue, ahead of the
// URLs queued after it: at once if notBefore is not after now, else once
// notBefore has come (a retry's backoff). No worker waits for it
// meanwhile: it waits here, in a heap ordered by time, and Wake counts it.
// Retries of a host that come back together keep their order: the one
// due first goes first, and of equal times the one requeued first.
// A gate job goes back as its host's gate, with j.Item as its new target
// (a robots.txt redirect). It reports false, and keeps nothing, if j's
// host was retired meanwhile: the caller records the URL as given up.
func (f *Frontier) Requeue(j *Job, now, notBefore time.Duration) bool {
	if !f.release(j, now) {
		return true
	}
	h := j.Host
	if h.retired {
		f.placeServer(h.server)
		return false
	}
	if j.Gate {
		h.gate = gateWaiting // neither handed out nor open: the queue waits behind it
	}
	if notBefore <= now || f.stopped {
		f.putBack(h, j.Gate, j.Item, now)
	} else {
		heap.Push(&f.delayed, delayedJob{at: notBefore, seq: f.nextSeq(), host: h, gate: j.Gate, item: j.Item})
	}
	f.placeServer(h.server)
	return true
}

// promote puts back every retry whose backoff is over by now.
func (f *Frontier) promote(now time.Duration) {
	if len(f.delayed) == 0 || f.delayed[0].at > now {
		return
	}
	due := f.due[:0]
	for len(f.delayed) > 0 && f.delayed[0].at <= now {
		due = append(due, heap.Pop(&f.delayed).(delayedJob))
	}
	f.putBackInOrder(due, now)
	f.due = due[:0]
}

// putBackInOrder puts back retries taken from the heap in its order:
// each goes to the front of its queue, so they go back last first, and
// of a host's retries that come back together the earliest is handed out
// first — between equal times, the one requeued first. (Put back first
// first, each would go ahead of the one before, and the order the heap
// keeps would come out reversed.) It clears due, which the caller keeps.
func (f *Frontier) putBackInOrder(due []delayedJob, now time.Duration) {
	for i := len(due) - 1; i >= 0; i-- {
		f.putBack(due[i].host, due[i].gate, due[i].item, now)
	}
	clear(due) // let the URLs and hosts go
}

// putBack returns an item to the front of h's queue, or a gate to h.
func (f *Frontier) putBack(h *Host, gate bool, it Item, now time.Duration) {
	it.QueuedMS = loopMS(now)
	if gate {
		h.gate, h.gateItem = gateNeeded, it
	} else {
		h.queue.pushFront(it)
		f.queued++
	}
	f.place(h)
}

// delayedJob is a retry waiting out its backoff.
type delayedJob struct {
	at   time.Duration // when it goes back to its queue
	seq  uint64        // order of arrival: breaks ties, so equal times keep their order
	host *Host
	gate bool
	item Item
}

func (f *Frontier) nextSeq() uint64 {
	f.seq++
	return f.seq
}

// delayHeap orders the waiting retries by the time they go back.
type delayHeap []delayedJob

func (q delayHeap) Len() int { return len(q) }
func (q delayHeap) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q delayHeap) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *delayHeap) Push(x any)   { *q = append(*q, x.(delayedJob)) }
func (q *delayHeap) Pop() any {
	old := *q
	d := old[len(old)-1]
	old[len(old)-1] = delayedJob{}
	*q = old[:len(old)-1]
	return d
}
