package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"loopkit/netpoll"
)

// Settings are what makes two runs the same crawl: a state directory
// holds one crawl, and a run with other settings is refused unless told
// otherwise (Open's reuse).
type Settings struct {
	Roots       []string `json:"roots"`
	Scope       string   `json:"scope"` // "strict" or "lenient"
	Exclude     string   `json:"exclude,omitempty"`
	MaxDepth    int      `json:"max_depth"`
	MaxRedirect int      `json:"max_redirect"`
	Robots      bool     `json:"robots"`
	Output      string   `json:"output,omitempty"` // -o, as an absolute path
}

// ErrOtherCrawl is wrapped by Open's error when the directory holds
// another crawl: other roots, scope or filters.
var ErrOtherCrawl = errors.New("the state directory holds another crawl")

// ErrInUse is wrapped by Open's error when another process works on the
// directory.
var ErrInUse = errors.New("the state directory is in use by another crawl")

// Journal is an open state directory. Write, Sync and Close may be called
// from any goroutine; Replay once, before the first Write.
type Journal struct {
	dir     string
	lock    *os.File
	mu      sync.Mutex
	f       *os.File // the journal, open for appending after Replay
	resumed bool     // the directory held a crawl already
	notices []string
}

// Open opens the state directory dir for a crawl with settings s,
// creating it if need be. It fails if another process holds it
// (ErrInUse), or if it holds a crawl with other settings (ErrOtherCrawl)
// unless reuse is set, in which case the new settings replace the old.
func Open(dir string, s Settings, reuse bool) (*Journal, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := netpoll.LockFile(lock); err != nil {
		lock.Close()
		if errors.Is(err, netpoll.ErrLocked) {
			return nil, fmt.Errorf("%s: %w (its lock file is held)", dir, ErrInUse)
		}
		return nil, err
	}
	j := &Journal{dir: dir, lock: lock}
	if err := j.settle(s, reuse); err != nil {
		lock.Close()
		return nil, err
	}
	if j.f, err = os.OpenFile(j.path(), os.O_CREATE|os.O_RDWR, 0o644); err != nil {
		lock.Close()
		return nil, err
	}
	return j, nil
}

func (j *Journal) path() string { return filepath.Join(j.dir, "journal") }

// settle compares s with the settings the directory holds, and writes s
// if it holds none (or reuse says to).
func (j *Journal) settle(s Settings, reuse bool) error {
	path := filepath.Join(j.dir, "crawl.json")
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return err
	default:
		j.resumed = true
		var was Settings
		if err := json.Unmarshal(old, &was); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		diff := Differences(was, s)
		if len(diff) == 0 {
			return nil
		}
		if !reuse {
			return fmt.Errorf("%s: %w (%s); give the same flags, another directory, or --state_reuse to go on with these",
				j.dir, ErrOtherCrawl, strings.Join(diff, "; "))
		}
		j.notices = append(j.notices, fmt.Sprintf("%s: going on with other settings (%s)", j.dir, strings.Join(diff, "; ")))
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writeFileSynced(path, append(b, '\n'))
}

// Differences says how b differs from a, one phrase per field.
func Differences(a, b Settings) []string {
	var out []string
	note := func(name string, x, y any) { out = append(out, fmt.Sprintf("%s was %v, now %v", name, x, y)) }
	if !slices.Equal(a.Roots, b.Roots) {
		note("roots", a.Roots, b.Roots)
	}
	if a.Scope != b.Scope {
		note("scope", a.Scope, b.Scope)
	}
	if a.Exclude != b.Exclude {
		note("--exclude", fmt.Sprintf("%q", a.Exclude), fmt.Sprintf("%q", b.Exclude))
	}
	if a.MaxDepth != b.MaxDepth {
		note("--max_depth", a.MaxDepth, b.MaxDepth)
	}
	if a.MaxRedirect != b.MaxRedirect {
		note("--max_redirect", a.MaxRedirect, b.MaxRedirect)
	}
	if a.Robots != b.Robots {
		note("--robots", a.Robots, b.Robots)
	}
	if a.Output != b.Output {
		note("-o", fmt.Sprintf("%q", a.Output), fmt.Sprintf("%q", b.Output))
	}
	return out
}

// Resumed says whether the directory held this crawl before Open.
func (j *Journal) Resumed() bool { return j.resumed }

// Notices are what the operator should hear of: a torn tail cut, a
// journal rewritten, settings replaced.
func (j *Journal) Notices() []string { return j.notices }

// Write appends b, whole entries made by the Append functions, with one
// write(2).
func (j *Journal) Write(b []byte) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	_, err := j.f.Write(b)
	return err
}

// Sync makes what was written survive a power cut.
func (j *Journal) Sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.f.Sync()
}

// Close syncs and closes the journal, and lets the directory go.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	err := j.f.Sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	j.lock.Close() // the lock goes with it
	return err
}

// writeFileSynced writes path whole, or not at all: a temporary file,
// synced, renamed over it.
func writeFileSynced(path string, b []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	return err
}
