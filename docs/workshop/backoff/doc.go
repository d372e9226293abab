// Package backoff is a workshop warm-up: the wait before a retry,
// exponential and jittered. README.md says what to build; exercise.go is
// yours to edit.
package backoff
