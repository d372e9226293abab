package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"loopkit/crawler/urlnorm"
	"loopkit/netpoll"
)

// Options are how a crawl opens its directory.
type Options struct {
	// Reuse goes on with a directory whose crawl had other settings (the
	// new ones replace the old), or whose journal is gone (the crawl
	// starts again from its roots).
	Reuse bool
	// Counts, if set, says what a URL done counts towards: its host's
	// pages and, if it has a query, its path's variants ("" for neither).
	// A replay gives back the counts (Visitor.Pages, Visitor.Variants),
	// so that a crawl's caps hold over its stops.
	Counts func(url string) (host, path string)
	// FoldMin is the least the journals since the last snapshot grow
	// before they are folded into a new one (fold.go): below it,
	// replaying them costs less than writing a snapshot would. [32 MiB]
	FoldMin int64
}

// defaultFoldMin is Options.FoldMin's default.
const defaultFoldMin = 32 << 20

// Journal is an open state directory. Write, Sync, End and Close may be
// called from any goroutine; Replay once, then Begin, before the first
// Write.
type Journal struct {
	dir      string
	opts     Options
	lock     *os.File
	settings Settings
	fresh    bool   // no crawl.json: a new crawl
	resumed  bool   // a crawl to go on with: its settings and its journal
	save     bool   // Begin writes crawl.json: new, or other settings reused
	refilter bool   // the filters changed, now or at an earlier start: the queue is filtered again
	newOut   bool   // -o is another file than the crawl's until now
	oldOut   string // with newOut: the file before, as crawl.json named it
	otherOut bool   // the log vouches for another -o file, and no start since named this one (walk.otherFile)
	key      urlnorm.SeenKey
	notices  []string

	snapGen int     // the snapshot the crawl goes on from; 0: none
	gens    []int   // the journals after it, in order
	outLen  int64   // what Replay found -o to hold, vouched for
	out     *Output // -o, if it is a regular file: synced before a snapshot vouches for it
	check   *Output // -o, if the journal vouches for its lines: checked at the start
	sum     Summary

	mu      sync.Mutex
	f       *os.File // the journal being appended to, after Begin
	gen     int      // its number
	size    int64    // bytes in the journals not folded yet, f's included
	foldAt  int64    // fold when size reaches it
	folding *folding // the fold running, if one is
	err     error    // a fold that failed: the next Write says so
}

// Open opens the state directory dir for a crawl with settings s,
// creating it if need be; it writes nothing yet (Begin does). It fails if
// another process holds it (ErrInUse), if it holds a crawl with other
// settings (ErrOtherCrawl), or if a file its crawl needs is missing
// (ErrMissing) — the last two unless opts.Reuse says to go on.
func Open(dir string, s Settings, opts Options) (*Journal, error) {
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
	if opts.FoldMin <= 0 {
		opts.FoldMin = defaultFoldMin
	}
	j := &Journal{dir: dir, opts: opts, lock: lock, settings: s}
	if err := j.settle(); err != nil {
		lock.Close()
		return nil, err
	}
	return j, nil
}

func (j *Journal) path(name string, gen int) string {
	return filepath.Join(j.dir, name+"."+strconv.Itoa(gen))
}

// Fresh says whether the directory held no crawl before Open.
func (j *Journal) Fresh() bool { return j.fresh }

// Refilter says whether the queue's URLs must pass this run's filters:
// the filters changed (Reuse), at this start or an earlier one, so the
// journal may still hold URLs queued under the old ones.
func (j *Journal) Refilter() bool { return j.refilter }

// NewOutput says whether -o is new to the crawl: the crawl is, or Reuse
// goes on with another file. Its lines, if it has any, are not the
// crawl's.
func (j *Journal) NewOutput() bool { return j.fresh || j.newOut }

// Resumed says whether the directory held a crawl to go on with.
func (j *Journal) Resumed() bool { return j.resumed }

// SeenKey is the key the crawl's seen sets hash with: the crawler's, in
// memory, must be the same as the snapshot's on disk.
func (j *Journal) SeenKey() urlnorm.SeenKey { return j.key }

// Notices are what the operator should hear of: a damaged tail cut,
// damage copied aside, -o cut, settings replaced.
func (j *Journal) Notices() []string { return j.notices }

// Begin starts writing: it says in the journal where this start found
// -o (an X entry, appended to the last journal, which is cut at its last
// whole entry by now), writes the settings if they are new, and starts a
// fold if the journals since the snapshot are long. Called once the
// crawl could start: a crawl refused or failed before leaves the
// directory as it was.
func (j *Journal) Begin() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.save {
		if err := j.saveSettings(); err != nil {
			return err
		}
	}
	gen, created := j.snapGen+1, true
	if len(j.gens) > 0 {
		gen, created = j.gens[len(j.gens)-1], false
	} else {
		j.gens = []int{gen}
	}
	f, err := os.OpenFile(j.path("journal", gen), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(appendStart(nil, j.outLen, j.NewOutput() || j.otherOut, j.settings.Output)); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if created {
		syncDir(j.dir)
	}
	j.f, j.gen = f, gen
	j.size = 0
	for _, g := range j.gens {
		if st, err := os.Stat(j.path("journal", g)); err == nil {
			j.size += st.Size()
		}
	}
	j.foldAt = j.foldThreshold()
	j.tidy()
	j.maybeFold()
	return nil
}

// tidy removes what a fold cut short left: a snapshot or seen file half
// written, or a seen file whose snapshot was never put in place. Only
// the last snapshot and its seen file are ever read.
func (j *Journal) tidy() {
	names, _ := os.ReadDir(j.dir)
	for _, e := range names {
		name, rest, ok := strings.Cut(e.Name(), ".")
		if !ok || name != "snapshot" && name != "seen" {
			continue
		}
		if n, err := strconv.Atoi(rest); err != nil || n != j.snapGen {
			os.Remove(filepath.Join(j.dir, e.Name()))
		}
	}
}

// saveSettings writes crawl.json whole, or not at all.
func (j *Journal) saveSettings() error {
	b, err := json.MarshalIndent(stateFile{j.settings, j.key.String(), j.refilter}, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileSynced(filepath.Join(j.dir, "crawl.json"), append(b, '\n')); err != nil {
		return err
	}
	j.save = false
	return nil
}

// Write appends b, whole entries made by the Append functions, with one
// write(2). Once the journals since the last snapshot are long enough,
// the journal goes on in a new file, and the ones before are folded into
// a new snapshot, off the caller's goroutine (fold.go).
func (j *Journal) Write(b []byte) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return j.err
	}
	n, err := j.f.Write(b)
	j.size += int64(n)
	if err == nil {
		j.maybeFold()
	}
	return err
}

// Sync makes what was written survive a power cut.
func (j *Journal) Sync() error {
	j.mu.Lock()
	f := j.f
	j.mu.Unlock()
	if f == nil {
		return nil
	}
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrClosed) { // closed: a new journal took its place, synced
		return err
	}
	return nil
}

// End says in the journal that the crawl is over with nothing left to
// do: a start that finds it says the crawl was finished.
func (j *Journal) End() error {
	if err := j.Write(appendNumbers(nil, kindEnd)); err != nil {
		return err
	}
	return j.Sync()
}

// Close stops a fold under way (the next start does it again), syncs and
// closes the journal, and lets the directory go.
func (j *Journal) Close() error {
	j.mu.Lock()
	fo := j.folding
	j.mu.Unlock()
	if fo != nil {
		fo.stop()
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	var err error
	if j.f != nil {
		err = j.f.Sync()
		if cerr := j.f.Close(); err == nil {
			err = cerr
		}
		j.f = nil
	}
	j.lock.Close() // the lock goes with it
	return err
}

// writeFileSynced writes path whole, or not at all: a temporary file,
// synced, renamed over it, and the directory synced so that the rename
// survives a power cut.
func writeFileSynced(path string, b []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	err = writeClose(f, b)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

// writeClose writes b to f, syncs it and closes it.
func writeClose(f *os.File, b []byte) error {
	_, err := f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir makes the names created, renamed or removed in dir survive a
// power cut.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
