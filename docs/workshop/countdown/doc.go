// Package countdown is workshop exercise 4: wait for many futures with
// nothing but callbacks. README.md says what to build; exercise.go is
// yours to edit.
package countdown
