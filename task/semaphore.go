package task

import (
	"errors"
)

// ErrOverReleased is returned by Release of a bounded semaphore (or a Lock)
// that would go above its initial value: a release without an acquire.
var ErrOverReleased = errors.New("task: semaphore released more times than acquired")

// Semaphore limits how many tasks hold it at once (asyncio.Semaphore).
// Waiters get it in FIFO order. Release hands the permit straight to the
// first waiter, so a task arriving in between cannot jump the queue.
type Semaphore struct {
	value   int
	bound   int // 0: unbounded
	waiters waiters
}

// NewSemaphore returns a semaphore with n permits.
func NewSemaphore(n int) *Semaphore { return &Semaphore{value: n} }

// NewBoundedSemaphore returns a semaphore with n permits whose Release
// reports ErrOverReleased instead of creating an (n+1)th.
func NewBoundedSemaphore(n int) *Semaphore { return &Semaphore{value: n, bound: n} }

// Acquire takes a permit, waiting for one if none is free. It returns an
// error (matching future.ErrCancelled) if the task is cancelled while
// waiting; the task then holds no permit.
func (s *Semaphore) Acquire(y Yield) error {
	if s.value > 0 && !s.waiters.waiting() {
		s.value--
		return nil
	}
	f := s.waiters.park(y)
	if _, err := Await(y, f); err != nil {
		if granted(f) {
			// Woken and cancelled at once: the permit was ours, pass it on.
			s.Release()
		}
		return err
	}
	return nil // the permit was handed over by Release
}

// TryAcquire takes a permit if one is free now.
func (s *Semaphore) TryAcquire() bool {
	if s.value > 0 && !s.waiters.waiting() {
		s.value--
		return true
	}
	return false
}

// Release returns a permit: to the first waiter if there is one.
func (s *Semaphore) Release() error {
	if s.waiters.wakeFirst() {
		return nil
	}
	if s.bound > 0 && s.value >= s.bound {
		return ErrOverReleased
	}
	s.value++
	return nil
}

// Available is the number of free permits.
func (s *Semaphore) Available() int { return s.value }

// Lock is a mutual-exclusion lock for tasks (asyncio.Lock): a bounded
// semaphore of one, with names that say what it is for.
type Lock struct{ s *Semaphore }

// NewLock returns an unlocked Lock.
func NewLock() *Lock { return &Lock{s: NewBoundedSemaphore(1)} }

// Lock waits until the lock is free and takes it.
func (l *Lock) Lock(y Yield) error { return l.s.Acquire(y) }

// Unlock releases the lock; unlocking an unlocked Lock is ErrOverReleased.
func (l *Lock) Unlock() error { return l.s.Release() }

// Locked reports whether some task holds the lock.
func (l *Lock) Locked() bool { return l.s.value == 0 }

// TryLock takes the lock if it is free now.
func (l *Lock) TryLock() bool { return l.s.TryAcquire() }
