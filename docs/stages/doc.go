// Package stages holds the tutorial's programs, one directory per stage
// (docs/tutorial.md tells the story), and the test that keeps the
// tutorial's quotations true to them.
//
// Each stage is a complete program: go run ./docs/stages/3-callbacks. Each
// starts the demo site on 127.0.0.1 (internal/demo), fetches from it,
// prints what it did, and stops.
package stages
