// Package offload is workshop exercise 18: keep blocking work off the
// loop. README.md says what to build; exercise.go is yours to edit.
package offload
