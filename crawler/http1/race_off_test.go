//go:build !race

package http1_test

// underRace is false without the race detector: see race_on_test.go.
const underRace = false
