package task

import "loopkit/loop"

// ParkedWorkers is how many coroutines l keeps parked for the next task
// (worker.go), for the tests that watch them being reused.
func ParkedWorkers(l *loop.Loop) int {
	if p, ok := l.Value(poolKey{}).(*pool); ok {
		return len(p.idle)
	}
	return 0
}
