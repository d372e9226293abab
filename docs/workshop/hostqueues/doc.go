// Package hostqueues is workshop exercise 15, the first of two parts on a
// polite crawler's to-do list: URLs in per-host queues, handed out only
// for hosts that may be asked now. README.md says what to build;
// exercise.go is yours to edit.
package hostqueues

// Job is a URL handed out, with its host.
type Job struct {
	Host, URL string
}
