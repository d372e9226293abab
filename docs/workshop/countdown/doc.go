// Package countdown is workshop exercise 6: wait for many futures with
// nothing but callbacks. README.md says what to build; exercise.go is
// yours to edit.
package countdown
