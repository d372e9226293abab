// Package frontier is workshop exercise 12: a polite crawler's to-do
// list, which hands out only URLs of hosts that may be asked now.
// README.md says what to build; exercise.go is yours to edit.
package frontier

// Job is a URL handed out, with its host.
type Job struct {
	Host, URL string
}
