// Package wakeup is workshop exercise 5: the loop's one door for other
// goroutines, CallSoonThreadsafe, and its deduplicated wake-up. README.md
// says what to build; exercise.go is yours to edit.
package wakeup

// Bell is what wakes a sleeping loop. In loopkit it is an eventfd (or a
// pipe) that the poller watches: Ring writes to it, which makes the
// loop's epoll_wait return, and Silence reads it empty again. Both are
// system calls; Ring may be called from any goroutine, Silence only by
// the loop.
type Bell interface {
	Ring() error
	Silence() error
}
