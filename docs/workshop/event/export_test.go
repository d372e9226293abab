//go:build workshop

package event

// Waiting is how many futures e still keeps.
func Waiting(e *Event) int { return len(e.waiters) }
