//go:build solution

package handback

import "loopkit/future"

// Offload runs fn on a goroutine of its own and completes the future on
// the loop: the goroutine touches nothing of the loop's but
// CallSoonThreadsafe, and hands it a callback that sets the result.
func Offload(l Loop, fn func() int) *future.Future[int] {
	f := future.New[int](l)
	go func() {
		v := fn()
		if err := l.CallSoonThreadsafe(func() { f.SetResult(v) }); err != nil {
			return // the loop is closed: nobody is left to tell
		}
	}()
	return f
}
