// Package event is a workshop warm-up: an Event whose waiters are
// futures. README.md says what to build; exercise.go is yours to edit.
// This file holds the Event, Wait and Clear.
package event

import (
	"loopkit/future"
	"loopkit/loop"
)

// Event is a flag that others wait for.
type Event struct {
	l       *loop.Loop
	set     bool
	waiters []*future.Future[struct{}] // the futures Wait handed out, not woken yet
}

// New returns an event, not set, on l.
func New(l *loop.Loop) *Event { return &Event{l: l} }

// Wait returns a future that completes once the flag is set: done already
// if it is. Cancel the future to stop waiting.
func (e *Event) Wait() *future.Future[struct{}] {
	f := future.New[struct{}](e.l)
	if e.set {
		f.SetResult(struct{}{})
		return f
	}
	e.waiters = append(e.waiters, f)
	return f
}

// Clear resets the flag: the next Wait waits.
func (e *Event) Clear() { e.set = false }

// IsSet reports the flag.
func (e *Event) IsSet() bool { return e.set }
