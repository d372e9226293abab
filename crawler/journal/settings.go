package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"loopkit/crawler/urlnorm"
)

// Settings are what makes two runs the same crawl: a state directory
// holds one crawl, and a run with other settings is refused unless told
// otherwise (Options.Reuse).
type Settings struct {
	Roots       []string `json:"roots"`
	Scope       string   `json:"scope"` // "strict" or "lenient"
	Exclude     string   `json:"exclude,omitempty"`
	MaxDepth    int      `json:"max_depth"`
	MaxRedirect int      `json:"max_redirect"`
	Robots      bool     `json:"robots"`
	Output      string   `json:"output,omitempty"` // -o, as an absolute path
}

// stateFile is crawl.json: the settings, and the key the crawl's seen
// set is hashed with (urlnorm.SeenKey), so that the next process reads
// the hashes a snapshot saved.
type stateFile struct {
	Settings
	SeenKey string `json:"seen_key"`
	// Refilter says the filters changed (Reuse) while URLs were queued
	// under the old ones: those entries stay in the journal, and a later
	// snapshot copies them, so every start filters the queue again, not
	// only the first with the new settings.
	Refilter bool `json:"refilter,omitempty"`
}

// ErrOtherCrawl is wrapped by Open's error when the directory holds
// another crawl: other roots, scope or filters.
var ErrOtherCrawl = errors.New("the state directory holds another crawl")

// ErrInUse is wrapped by Open's error when another process works on the
// directory.
var ErrInUse = errors.New("the state directory is in use by another crawl")

// ErrMissing is wrapped by Open's error when the directory lacks a file
// its crawl needs: the settings without a journal, or a journal without
// its settings.
var ErrMissing = errors.New("the state directory is missing a file")

// settle reads what the directory holds — its settings, its snapshots and
// journals — and compares the settings with the crawl's.
func (j *Journal) settle() error {
	snaps, gens, err := j.list()
	if err != nil {
		return err
	}
	path := filepath.Join(j.dir, "crawl.json")
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if len(snaps) > 0 || len(gens) > 0 {
			return fmt.Errorf("%s: %w: it holds a journal but not crawl.json, the crawl's settings and the key its seen set is saved with; give another directory", j.dir, ErrMissing)
		}
		j.fresh, j.save, j.key = true, true, urlnorm.NewSeenKey()
		return nil
	case err != nil:
		return err
	}
	var was stateFile
	if err := json.Unmarshal(old, &was); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if j.key, err = urlnorm.ParseSeenKey(was.SeenKey); err != nil {
		return fmt.Errorf("%s: seen_key: %w (made by another version of loopkit?)", path, err)
	}
	j.refilter = was.Refilter
	if diff := Differences(was.Settings, j.settings); len(diff) > 0 {
		if !j.opts.Reuse {
			return fmt.Errorf("%s: %w (%s); give the same flags, another directory, or Config.StateReuse to go on with these",
				j.dir, ErrOtherCrawl, strings.Join(diff, "; "))
		}
		j.notices = append(j.notices, fmt.Sprintf("%s: going on with other settings (%s)", j.dir, strings.Join(diff, "; ")))
		j.save, j.newOut = true, was.Output != j.settings.Output
		if j.newOut {
			j.oldOut = was.Output
		}
		sameOut := was.Settings
		sameOut.Output = j.settings.Output
		j.refilter = j.refilter || len(Differences(sameOut, j.settings)) > 0
	}
	if len(snaps) == 0 && len(gens) == 0 {
		if !j.opts.Reuse {
			return fmt.Errorf("%s: %w: it holds crawl.json but no journal, which says what was done; give another directory, or Config.StateReuse to crawl again from the roots (what Config.Output holds is then fetched again)",
				j.dir, ErrMissing)
		}
		j.notices = append(j.notices, fmt.Sprintf("%s: it has no journal: the crawl starts again from its roots", j.dir))
		return nil
	}
	j.resumed = true
	if len(snaps) > 0 {
		j.snapGen = snaps[len(snaps)-1]
	}
	for _, g := range gens {
		if g > j.snapGen {
			j.gens = append(j.gens, g)
		}
	}
	// A journal missing (deleted: journals are created synced, and only
	// a fold removes them, with the snapshot that replaces them in place)
	// is read as damage: nothing done after it counts, and what it held
	// is found again.
	missing := func(g int) {
		j.notices = append(j.notices, fmt.Sprintf("%s: %s is not there, nor a snapshot in its place: no record after it counts as done, and what it held is found again",
			j.dir, filepath.Base(j.path("journal", g))))
	}
	prev := j.snapGen
	for _, g := range j.gens {
		if gap(prev, g) {
			missing(prev + 1)
		}
		prev = g
	}
	if len(j.gens) == 0 {
		missing(j.snapGen + 1)
	}
	return nil
}

// gap says whether journal g does not follow the one before it, prev (a
// snapshot's number for the first): one was removed between them.
func gap(prev, g int) bool { return g != prev+1 }

// list returns the numbers of the directory's snapshots and journals, in
// order. A snapshot being written (.tmp) is not one.
func (j *Journal) list() (snaps, gens []int, err error) {
	names, err := os.ReadDir(j.dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range names {
		name, num, ok := strings.Cut(e.Name(), ".")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n < 1 {
			continue
		}
		switch name {
		case "snapshot":
			snaps = append(snaps, n)
		case "journal":
			gens = append(gens, n)
		}
	}
	slices.Sort(snaps)
	slices.Sort(gens)
	return snaps, gens, nil
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
		note("Config.Exclude", fmt.Sprintf("%q", a.Exclude), fmt.Sprintf("%q", b.Exclude))
	}
	if a.MaxDepth != b.MaxDepth {
		note("Config.MaxDepth", a.MaxDepth, b.MaxDepth)
	}
	if a.MaxRedirect != b.MaxRedirect {
		note("Config.MaxRedirect", a.MaxRedirect, b.MaxRedirect)
	}
	if a.Robots != b.Robots {
		obeyed := map[bool]string{true: "obeyed", false: "ignored"}
		out = append(out, fmt.Sprintf("robots.txt was %s, now %s", obeyed[a.Robots], obeyed[b.Robots]))
	}
	if a.Output != b.Output {
		note("Config.Output", fmt.Sprintf("%q", a.Output), fmt.Sprintf("%q", b.Output))
	}
	return out
}

// ReadSettings reads the settings a state directory holds, without
// opening it: whether there are any, and what they are.
func ReadSettings(dir string) (Settings, bool, error) {
	b, err := os.ReadFile(filepath.Join(dir, "crawl.json"))
	if errors.Is(err, os.ErrNotExist) {
		return Settings{}, false, nil
	}
	if err != nil {
		return Settings{}, false, err
	}
	var s stateFile
	if err := json.Unmarshal(b, &s); err != nil {
		return Settings{}, false, fmt.Errorf("%s: %w", filepath.Join(dir, "crawl.json"), err)
	}
	return s.Settings, true, nil
}
