package journal

import (
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
)

// The done log (DIR/done) keeps, after the snapshots have folded them
// away, the O entries that vouched for -o's lines: which bytes of -o
// hold which URLs' lines. A start never reads it, but when -o holds less
// than the snapshot vouched for — cut, or replaced, since: not what a
// stop or a power cut does, since the snapshot was written after -o was
// synced. Then it says which pages' lines are gone, and they are fetched
// again (U entries), so that even then no page is lost. Each fold
// appends the O entries it counted, synced before the snapshot that
// counts them is written. It costs a line per page on disk, read only
// in that case.
func (j *Journal) appendDoneLog(marks []byte) error {
	if len(marks) == 0 {
		return nil
	}
	return appendSynced(filepath.Join(j.dir, "done"), marks)
}

// A doneLogWriter appends a fold's O entries to the done log as the fold
// counts them, a buffer at a time: a fold of a million pages does not
// hold a million entries. sync makes them last, before the snapshot that
// counts them is written. A fold cut short leaves its entries appended;
// the next fold appends them again, and readDoneLog reads an entry that
// starts where one before it did as replacing it.
type doneLogWriter struct {
	path string
	f    *os.File
	buf  []byte
	err  error
}

// doneLogBuffer is how much of a fold's entries is held before it is
// appended: a variable only so that a test can make a fold append often.
var doneLogBuffer = 1 << 20

func (j *Journal) doneLogWriter() *doneLogWriter {
	return &doneLogWriter{path: filepath.Join(j.dir, "done")}
}

// add appends an O entry, counted by a fold.
func (d *doneLogWriter) add(e entry) {
	d.buf = appendMark(d.buf, e.n[0], e.n[1], e.sum, e.lines)
	if len(d.buf) >= doneLogBuffer {
		d.flush()
	}
}

func (d *doneLogWriter) flush() {
	if d.err != nil || len(d.buf) == 0 {
		return
	}
	if d.f == nil {
		d.f, d.err = os.OpenFile(d.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if d.err != nil {
			return
		}
	}
	_, d.err = d.f.Write(d.buf)
	d.buf = d.buf[:0]
}

// sync appends what is held, and makes every entry appended survive a
// power cut.
func (d *doneLogWriter) sync() error {
	d.flush()
	if d.err == nil && d.f != nil {
		d.err = d.f.Sync()
	}
	return d.err
}

func (d *doneLogWriter) close() {
	if d.f != nil {
		d.f.Close()
	}
}

// recoverOutput deals with an -o shorter than the snapshot vouched for
// (vouched): it finds, from the done log, the longest start of -o whose
// lines are whole and match, and cuts -o there. It appends to the last
// journal a U entry for every page the snapshot counted done whose line
// was past the cut, then an X entry saying where -o was cut, and folds
// the log (checking -o, so that the O entries since the snapshot, whose
// lines are gone too, are not counted: their pages are to do as they
// were). The replay that follows reads the new snapshot.
func (j *Journal) recoverOutput(vouched int64) error {
	marks, err := j.readDoneLog()
	if err != nil {
		return err
	}
	covered := int64(0)
	for _, m := range marks {
		if m.n[0] == covered {
			covered = m.n[1]
		}
	}
	if covered < vouched {
		return fmt.Errorf("%s holds %d bytes, fewer than the %d the crawl's snapshot vouched for, and the done log, which would say whose lines are gone, is missing or damaged: the pages cannot be told; give another directory and -o to crawl again",
			j.out.path, j.out.Size(), vouched)
	}
	size := j.out.Size()
	keep := int64(0)
	for _, m := range marks {
		if m.n[0] != keep || m.n[1] > size {
			break
		}
		b, err := j.out.readAt(m.n[0], m.n[1])
		if err != nil || crc32.ChecksumIEEE(b) != m.sum {
			break
		}
		keep = m.n[1]
	}
	var again []byte
	seen := map[string]bool{}
	for _, m := range marks {
		for _, l := range m.lines {
			if m.n[0] >= keep && !seen[l.URL] {
				seen[l.URL] = true
				again = appendQueued(again, kindUndone, l.URL, l.Depth, 0)
			}
		}
	}
	// The pages whose lines the journals since the snapshot vouched for
	// are past the cut too: their O entries will not match, and their
	// Q entries make them to do. They are counted here for the notice.
	journals, err := j.openJournals()
	defer closeAll(journals)
	if err != nil {
		return err
	}
	for _, f := range journals {
		if _, err := scanFile(f, 0, func(e entry) {
			for _, l := range e.lines {
				seen[l.URL] = true
			}
		}, func(int64, int64, int) {}); err != nil {
			return err
		}
	}
	why := fmt.Sprintf("it held %d bytes, fewer than the %d the crawl's snapshot vouched for (cut or replaced since: a stop or a power cut does not do that); the %s whose lines were past the cut are fetched again (the done log says which)",
		size, vouched, plural(len(seen), "page"))
	if keep < size {
		j.cutOutput(keep, why)
	} else {
		// Cut after a whole line: nothing left to cut, and as much to say.
		j.notices = append(j.notices, j.out.path+": "+why)
	}
	start := appendStart(nil, keep, false, j.settings.Output)
	if err := j.appendDoneLog(start); err != nil {
		return err
	}
	if err := j.appendLast(append(again, start...)); err != nil {
		return err
	}
	return j.foldNow()
}

// readDoneLog reads the done log's O entries, as they stand: an X entry
// says a start cut -o there, and what came after it is void; an O entry
// that starts before the one before it replaces what came after that
// point.
func (j *Journal) readDoneLog() ([]entry, error) {
	f, err := os.Open(filepath.Join(j.dir, "done"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var marks []entry
	_, err = scanFile(f, 0, func(e entry) {
		switch e.kind {
		case kindOutput:
			for len(marks) > 0 && marks[len(marks)-1].n[0] >= e.n[0] {
				marks = marks[:len(marks)-1]
			}
			marks = append(marks, e)
		case kindStart: // -o was cut there: what came after is void
			for len(marks) > 0 && marks[len(marks)-1].n[1] > e.n[0] {
				marks = marks[:len(marks)-1]
			}
		}
	}, func(int64, int64, int) {})
	return marks, err
}

// appendLast appends b to the last journal, or to a new one after the
// snapshot, and syncs it.
func (j *Journal) appendLast(b []byte) error {
	gen := j.snapGen + 1
	if len(j.gens) > 0 {
		gen = j.gens[len(j.gens)-1]
	} else {
		j.gens = []int{gen}
	}
	return appendSynced(j.path("journal", gen), b)
}

// appendSynced appends b to the file at path, creating it if need be,
// and syncs it.
func appendSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	return writeClose(f, b)
}
