// Package ringonce is a workshop warm-up: the write that wakes a loop,
// and what its errors mean. README.md says what to build; exercise.go is
// yours to edit.
package ringonce
