// Package echo is workshop exercise 3: an echo server made of the loop's
// reader and writer callbacks and nothing else. README.md says what to
// build; exercise.go is yours to edit.
package echo
