// Package runner is the workshop's runner, in the spirit of rustlings: it
// lists the exercises with the learner's progress, says which comes next,
// reveals hints one at a time and verifies an exercise. docs/workshop's
// main.go is a thin command over it; the files it reads (each exercise's
// README.md, hints/NAME.md) are embedded there.
//
// Progress is never stored: an exercise is solved when its tests pass
// against the learner's exercise.go, so the runner runs them (go test's
// cache makes that quick for what has not changed).
package runner

import "fmt"

// Exercise is one exercise: a package docs/workshop/Name whose
// exercise.go the learner edits.
type Exercise struct {
	Name string
	// Race: the exercise involves goroutines besides the loop's, so its
	// tests run with the race detector — a data race is a wrong answer.
	Race bool
}

// Exercises are the workshop's exercises in the order to do them: the
// order of the tutorial's stages, each of which ends by naming its
// exercises, so that a learner practises what was just read. The number
// in each README's title is its place here (a test checks it).
// The two longest are cut in two parts of about twenty minutes each; a
// part 2 gives part 1's answer in its doc.go, so it stands on its own.
// Each stage starts with a warm-up of five to ten minutes: one function,
// one rule.
var Exercises = []Exercise{
	{Name: "readyqueue"}, // a warm-up
	{Name: "timerheap"},
	{Name: "echo", Race: true},
	{Name: "event"}, // a warm-up
	{Name: "minifuture"},
	{Name: "countdown"},
	{Name: "timeout"},
	{Name: "sleep"}, // a warm-up
	{Name: "taskstep"},
	{Name: "ratelimit"},
	{Name: "backoff"}, // a warm-up
	{Name: "queuejoin"},
	{Name: "chunksize"},            // chunked, part 1 of 2
	{Name: "chunked"},              // part 2
	{Name: "hostqueues"},           // the frontier, part 1 of 2
	{Name: "frontier"},             // part 2
	{Name: "handback", Race: true}, // a warm-up
	{Name: "offload", Race: true},
	{Name: "ringonce"}, // a warm-up
	{Name: "wakeup", Race: true},
}

// Module is the module path the exercise packages live under.
const Module = "loopkit/docs/workshop/"

// Package is the exercise's import path.
func (e Exercise) Package() string { return Module + e.Name }

// Lookup finds an exercise by name, or by its number ("3").
func Lookup(name string) (Exercise, int, error) {
	for i, e := range Exercises {
		if e.Name == name || fmt.Sprint(i+1) == name {
			return e, i + 1, nil
		}
	}
	return Exercise{}, 0, fmt.Errorf("no exercise %q (go run ./docs/workshop list shows them all)", name)
}
