// Package commands runs the chapters' shell commands as written — every
// command of README.md, docs/tutorial.md, docs/kernel.md and docs/resp.md —
// and checks the output each chapter quotes. It has tests only, behind the
// e2e build tag, because they build and run a dozen programs and take
// minutes: CI runs them (.ci/run), and so can you:
//
//	go test -tags e2e ./docs/commands
//
// A command that cannot run as written in a test (an hour of benchmarks,
// a package install) is listed with the reason, and with what runs in
// its place; a command the chapters gain is a failure until it is listed.
package commands
