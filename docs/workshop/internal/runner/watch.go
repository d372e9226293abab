package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// watchEvery is how often watch looks at the exercise files. Polling two
// dozen mtimes costs nothing, and needs no OS-specific notification API.
const watchEvery = 500 * time.Millisecond

// watch verifies an exercise, then again each time an exercise.go
// changes: the named one, or else the first not yet solved.
func (a *App) watch(ctx context.Context, args []string) error {
	if a.Dir == "" {
		return errors.New("watch: the workshop's directory is not known")
	}
	last := ""
	for {
		stamp := a.stamp()
		if stamp != last {
			last = stamp
			if err := a.verifyTarget(ctx, args); err != nil {
				return err
			}
			fmt.Fprintln(a.Out, "\nWatching docs/workshop/*/exercise.go; save to check again, Ctrl-C to stop.")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(watchEvery):
		}
	}
}

// verifyTarget verifies the exercise named, or the first unsolved one.
func (a *App) verifyTarget(ctx context.Context, args []string) error {
	var e Exercise
	if len(args) == 1 {
		var err error
		if e, _, err = Lookup(args[0]); err != nil {
			return err
		}
	} else {
		results, err := a.progress(ctx)
		if err != nil {
			return err
		}
		var ok bool
		if e, _, ok = FirstUnsolved(results); !ok {
			fmt.Fprintln(a.Out, "Every exercise is solved.")
			return nil
		}
	}
	ok, err := a.Tester.Verify(ctx, e, a.Out)
	if err != nil && ctx.Err() == nil {
		return err
	}
	fmt.Fprint(a.Out, FormatVerdict(e, ok, e.Race && a.Tester.RaceDetector()))
	return nil
}

// stamp summarises the exercise files' sizes and modification times: it
// changes when any of them is saved.
func (a *App) stamp() string {
	s := ""
	for _, e := range Exercises {
		if fi, err := os.Stat(filepath.Join(a.Dir, e.Name, "exercise.go")); err == nil {
			s += fmt.Sprintf("%s:%d:%d;", e.Name, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return s
}
