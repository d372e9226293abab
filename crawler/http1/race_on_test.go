//go:build race

package http1_test

// underRace is true when the race detector is on: it slows every
// goroutine several times over, and a 100 ms gap between a server's
// bytes can stretch past a 2 s read timeout.
const underRace = true
