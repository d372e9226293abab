// Command workshop is the loopkit workshop's runner:
//
//	go run ./docs/workshop list           progress, ✓ or ✗ per exercise
//	go run ./docs/workshop next           the first exercise not solved yet
//	go run ./docs/workshop hint NAME [N]  one hint at a time
//	go run ./docs/workshop verify NAME    an exercise's tests, with their output
//	go run ./docs/workshop watch [NAME]   verify again on every save
//
// It lives here, beside the exercises, so that `go run ./docs/workshop`
// is all a learner types; its logic is in internal/runner.
package main

import (
	"context"
	"embed"
	"os"
	"os/exec"
	"os/signal"
	"strings"

	"loopkit/docs/workshop/internal/runner"
)

// files are the exercises' READMEs, the hints and the known wrong answers,
// built into the runner.
//
//go:embed */README.md hints/*.md solutions/*/wrong/*.diff
var files embed.FS

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	app := &runner.App{Files: files, Tester: runner.GoTester{NoRace: !cgo()}, Out: os.Stdout}
	if len(os.Args) > 1 && os.Args[1] == "watch" {
		app.Dir = workshopDir()
	}
	os.Exit(app.Run(ctx, os.Args[1:]))
}

// cgo reports whether go will build with cgo, which the race detector
// needs: go turns it off where it finds no C compiler.
func cgo() bool {
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	return err == nil && strings.TrimSpace(string(out)) == "1"
}

// workshopDir is where the exercises are on disk, wherever in the module
// the command was started from.
func workshopDir() string {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "loopkit/docs/workshop").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
