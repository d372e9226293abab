package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Damage is named and kept. What a start cuts — a torn or damaged tail
// of the journal, -o past what the journal vouches for — it says, in a
// notice; what is damage rather than a write cut short, it copies to the
// state directory's damaged/ first, and the notice names the copy.

// cutOutput cuts -o at at, saying why in a notice. Whole lines cut are
// pages done again; bytes that are not whole lines are damage, copied
// aside first.
func (j *Journal) cutOutput(at int64, why string) { j.cutFile(j.out, at, why) }

// cutOldOutput cuts the tail of the crawl's file before (a start with
// another -o) that the journal does not vouch for: lines written as the
// crawl stopped, whose pages are fetched again into the new file. Cut,
// each page's line is in one of the two files, not both. A file gone, or
// not a regular file, is left as it is.
func (j *Journal) cutOldOutput(at int64) {
	if j.oldOut == "" {
		return
	}
	f, err := os.OpenFile(j.oldOut, os.O_RDWR, 0)
	if err != nil {
		return
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return
	}
	o, err := newOutput(j.oldOut, f)
	if err != nil {
		f.Close()
		return
	}
	defer o.Close()
	j.cutFile(o, at, "written as the crawl stopped: their pages are fetched again, into "+j.settings.Output)
}

// cutFile cuts out after at, saying why, and copying aside what is not
// whole lines.
func (j *Journal) cutFile(out *Output, at int64, why string) {
	size := out.Size()
	if at >= size {
		return
	}
	b, err := out.readAt(at, size)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		b = nil
	}
	lines := bytes.Count(b, []byte("\n"))
	what := plural(lines, "whole line")
	if len(b) > 0 && (b[len(b)-1] != '\n' || bytes.IndexByte(b, 0) >= 0) {
		name := j.saveDamaged("output."+strconv.FormatInt(at, 10), b)
		what = fmt.Sprintf("%s, and damage: copied to %s", plural(lines, "line"), name)
	}
	if err := out.cut(at); err != nil {
		j.notices = append(j.notices, fmt.Sprintf("%s: could not be cut at byte %d: %v", out.path, at, err))
		return
	}
	j.notices = append(j.notices, fmt.Sprintf("%s: cut %d bytes after the %d the journal vouches for (%s); %s",
		out.path, size-at, at, what, why))
}

// plural says n things, in words.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// truncate cuts the file at path at size, for good.
func truncate(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	err = f.Truncate(size)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// copyAside copies the damaged bytes at..end of f to the directory's
// damaged/, and says so: what they are, where they went, and what comes
// of it.
func (j *Journal) copyAside(f *os.File, at, end int64, what, outcome string) {
	b := make([]byte, end-at)
	if _, err := f.ReadAt(b, at); err != nil {
		b = nil
	}
	name := j.saveDamaged(filepath.Base(f.Name())+"."+strconv.FormatInt(at, 10), b)
	j.notices = append(j.notices, fmt.Sprintf("%s: %s (%d bytes at byte %d, in which %d URLs can be read) copied to %s; %s",
		f.Name(), what, end-at, at, urlsIn(b), name, outcome))
}

// saveDamaged writes b to damaged/name in the state directory, and
// returns the file's path (or why it could not be written).
func (j *Journal) saveDamaged(name string, b []byte) string {
	dir := filepath.Join(j.dir, "damaged")
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Sprintf("nowhere (%v)", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Sprintf("nowhere (%v)", err)
	}
	return path
}
