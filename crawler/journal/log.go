package journal

import (
	"bufio"
	"bytes"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"time"

	"loopkit/crawler/urlnorm"
)

// A crawl's log is its last snapshot, then the journals after it, read in
// order. A start reads it to go on (replay.go); a fold reads it to write
// the next snapshot (fold.go). Both read it twice: walk, the first pass,
// finds what is done and the politeness state; handOut, the second,
// tells what is to do.
//
// # What is done
//
// A page is done when its record is: a line in -o (an O entry says which
// bytes of -o hold which URLs' lines), or, with no -o to read back, a D
// entry. Its links were queued (Q) before its record was written, in the
// same batch or an earlier one. So the rule that makes a stop cost pages
// fetched again and never a page lost is: a record counts only if every
// entry before it in the log is whole. A power cut, which may leave any
// file with any prefix of what was written to it, or with zeros, leaves
// the entries before a whole O entry whole too — or, if not, the records
// after the damage are not counted, their pages are fetched again, and
// the links they held are found again.
//
// -o is counted from its start: its first bytes vouched for by an O
// entry, then the next, and so on. Two loops write their batches at once,
// so an O entry may come before the one for the bytes before it; it
// waits (pending) until the gap is filled. At a start, the bytes an O
// entry vouches for are read back from -o and checked against its CRC:
// a line that did not reach the disk, or was damaged since, ends what is
// counted there. Whatever -o holds past what is counted is cut: its pages
// are fetched again, and their lines written again, once each.
//
// An X entry is a start: -o then held exactly what it says, all vouched
// for (or was another file, new to the crawl), and any damage before it
// was dealt with. An E entry says the crawl
// ended with nothing left to do.
//
// A size vouched for belongs to the file it was measured on: a snapshot
// names that file (an F entry), and so does each X entry. A start whose
// -o is another file than the one the log's last word is about — a
// start with --state_reuse and a new -o whose X entry a power cut lost —
// counts none of that size for its own file (otherFile).
type walk struct {
	key    urlnorm.SeenKey
	check  *Output                              // the -o file marks are checked against (a start); nil: trust them (a fold)
	counts func(url string) (host, path string) // what a URL done counts towards

	outLen   int64             // -o's bytes vouched for so far
	outFile  string            // the -o file outLen was measured on; "": not said (a log written before files were named)
	pending  map[int64]entry   // O entries past outLen, by where they start
	outBad   bool              // an O entry did not match -o: nothing after it is counted
	badFrom  int64             // where that entry's bytes began
	damaged  bool              // a damaged entry since the last X: no record after it is counted
	done     urlnorm.Seen      // URLs done since the snapshot
	doneN    int               // how many, with the snapshot's
	unsent   map[uint64]string // pages sent and not done (yet), by hash: handed out last
	robots   map[string]entry
	holds    map[string]time.Time
	pages    map[string]int // pages done, by host, with the snapshot's
	variants map[string]int // queries done, by path, with the snapshot's
	finished bool
	seenN    int // URLs the snapshot's seen set holds

	undone    []entry        // URLs done once, to do again (U), in order; kind 0: done again since
	snapQueue int64          // the snapshot's Q entries: URLs to do, unless done since
	undoneAt  map[uint64]int // their places in undone, by hash

	onDone   func(h uint64) // a start adds each URL done to the crawl's seen set
	onQueued func(h uint64) // a fold collects the journals' URLs for its seen file
	onMark   func(e entry)  // a fold keeps each O entry it counts, in the done log
}

func newWalk(key urlnorm.SeenKey, check *Output, counts func(string) (string, string)) *walk {
	return &walk{key: key, check: check, counts: counts, done: urlnorm.NewSeen(key, nil),
		pending: map[int64]entry{}, unsent: map[uint64]string{}, robots: map[string]entry{},
		holds: map[string]time.Time{}, pages: map[string]int{}, variants: map[string]int{},
		undoneAt: map[uint64]int{}}
}

// add takes in one entry of the log, in order.
func (w *walk) add(e entry) {
	switch e.kind {
	case kindQueued:
		w.finished = false
		if w.onQueued != nil {
			w.onQueued(w.key.Hash(e.url))
		}
	case kindSent:
		if h := w.key.Hash(e.url); !w.done.HasHash(h) {
			w.unsent[h] = e.url
		}
	case kindDone:
		if !w.damaged {
			w.isDone(e.url)
		}
	case kindOutput:
		if !w.damaged && !w.outBad {
			w.vouched(e)
		}
	case kindRobots:
		w.robots[e.url] = e
	case kindHold:
		w.holds[e.url] = later(w.holds[e.url], e.until)
	case kindStart:
		w.started(e.n[0], e.n[1] == 1, e.url)
	case kindEnd:
		w.finished = true
	case kindUndone:
		w.finished = false
		if h := w.key.Hash(e.url); !w.isUndone(h) {
			w.undoneAt[h] = len(w.undone)
			w.undone = append(w.undone, e)
			w.tally(e.url, -1)
		}
	}
}

// isUndone says whether the URL whose hash is h is to do again.
func (w *walk) isUndone(h uint64) bool {
	_, ok := w.undoneAt[h]
	return ok
}

// damage says the log has a damaged stretch here, with whole entries
// after it.
func (w *walk) damage() { w.damaged = true }

// vouched takes in an O entry: counted if it starts where what is
// counted ends, waiting otherwise.
func (w *walk) vouched(e entry) {
	switch from := e.n[0]; {
	case from < w.outLen:
		return // overlaps what is counted: left by a start that cut -o, and void
	case from > w.outLen:
		w.pending[from] = e
		return
	}
	w.count(e)
	for !w.outBad {
		next, ok := w.pending[w.outLen]
		if !ok {
			break
		}
		delete(w.pending, w.outLen)
		w.count(next)
	}
}

// count counts an O entry's lines as done, once they are checked against
// -o, at a start.
func (w *walk) count(e entry) {
	from, to := e.n[0], e.n[1]
	if w.check != nil {
		b, err := w.check.readAt(from, to)
		if err != nil || crc32.ChecksumIEEE(b) != e.sum {
			w.outBad, w.badFrom = true, from
			return
		}
	}
	w.outLen = to
	for _, l := range e.lines {
		w.isDone(l.URL)
	}
	if w.onMark != nil {
		w.onMark(e)
	}
}

// isDone counts url as done.
func (w *walk) isDone(url string) {
	h := w.key.Hash(url)
	delete(w.unsent, h)
	again := w.isUndone(h) // done once, to do again, and now done again
	if again {
		w.undone[w.undoneAt[h]].kind = 0
		delete(w.undoneAt, h)
	}
	if !w.done.AddHash(h) && !again {
		return
	}
	if w.onDone != nil {
		w.onDone(h)
	}
	w.tally(url, 1)
}

// tally counts url done (n = 1) or no longer done (n = -1): the URLs
// done, and what they count towards.
func (w *walk) tally(url string, n int) {
	w.doneN += n
	if w.counts != nil {
		host, path := w.counts(url)
		if host != "" {
			w.pages[host] += n
		}
		if path != "" {
			w.variants[path] += n
		}
	}
}

// started takes in an X entry: a start found -o holding outLen bytes,
// all vouched for, and dealt with the damage before it. The O entries
// still waiting were for bytes it cut: void. With another file (new), the
// O entries from here are for that one, from outLen on.
func (w *walk) started(outLen int64, new bool, file string) {
	w.damaged = false
	clear(w.pending)
	if file != "" {
		w.outFile = file
	}
	if new || w.outBad && outLen <= w.badFrom {
		// Another file; or a start cut -o before the bytes that do not
		// match, and the O entries after it are for what it wrote since.
		w.outLen, w.outBad = outLen, false
		return
	}
	if outLen == w.outLen || w.outBad {
		return // outBad: -o was damaged since that start; what is counted ends there
	}
	if outLen > w.outLen {
		// The O entries that took it there are damaged (or a file is):
		// the bytes past outLen are not counted, nor are the ones after.
		w.outBad = true
		return
	}
	// Below what is counted: a start found -o shorter than its snapshot
	// vouched for, cut it here, and wrote U entries before this one for
	// every page whose line was past the cut (donelog.go).
	w.outLen = outLen
}

// otherFile says, at a start whose -o is file, that what the log vouches
// for so far was measured on another file: none of it is this file's, and
// the O entries waiting past a gap are the other file's too. From here,
// only O entries from byte 0 count, checked against this file; in a log
// that is whole there are none before the X entry that names this file.
// Reports whether it was another file.
func (w *walk) otherFile(file string) bool {
	if w.outFile == "" || w.outFile == file {
		return false
	}
	w.outLen, w.outBad = 0, false
	clear(w.pending)
	return true
}

// later is the later of two times: a later, shorter hold does not
// replace a longer one.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// scanFile reads the whole entries of f from offset from to its end,
// calling fn for each. A damaged stretch with a whole entry after it is
// told to damage first, with where it is and how many lines it has. It
// returns the offset after the last whole entry: past it is a torn or
// damaged tail.
func scanFile(f *os.File, from int64, fn func(entry), damage func(at, end int64, lines int)) (good int64, err error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return scanRange(f, from, st.Size(), fn, damage)
}

// scanRange is scanFile up to offset to: what the file held when it was
// first read, though it has grown since.
func scanRange(f *os.File, from, to int64, fn func(entry), damage func(at, end int64, lines int)) (good int64, err error) {
	r := bufio.NewReaderSize(io.NewSectionReader(f, from, to-from), 256<<10)
	good = from
	offset, badLines := from, 0
	for {
		line, n, err := readEntry(r)
		if err == io.EOF {
			return good, nil // a last line without its newline is torn
		}
		if err != nil {
			return good, err
		}
		offset += int64(n)
		e, perr := parseEntry(line)
		if perr != nil {
			badLines++
			continue
		}
		if badLines > 0 {
			damage(good, offset-int64(n), badLines)
			badLines = 0
		}
		fn(e)
		good = offset
	}
}

// maxEntry is longer than any entry written: a robots.txt of 512 KiB is
// 683 KiB in base64. A longer "line" is damage (or not a journal).
const maxEntry = 1 << 20

// readEntry reads a line, and says how many bytes it took, newline
// included. The line is returned without its newline; a line longer than
// maxEntry is returned empty (damaged), and read past all the same.
func readEntry(r *bufio.Reader) (line []byte, n int, err error) {
	line, err = r.ReadSlice('\n')
	n = len(line)
	if errors.Is(err, bufio.ErrBufferFull) {
		// Longer than the buffer: read it whole to check it.
		long := append([]byte(nil), line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = r.ReadSlice('\n')
			n += len(line)
			if len(long) <= maxEntry {
				long = append(long, line...)
			}
		}
		line = long
		if n > maxEntry {
			line = line[:0]
		}
	}
	if err != nil {
		return nil, n, err
	}
	if len(line) > 0 {
		line = line[:len(line)-1]
	}
	return line, n, nil
}

// urlsIn counts the URLs that can still be read in damaged bytes.
func urlsIn(b []byte) int { return bytes.Count(b, []byte("://")) }
