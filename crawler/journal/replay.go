package journal

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"loopkit/crawler/urlnorm"
)

// Visitor hears what a replay finds, in this order: Known, then the
// counts (Pages, Variants), then the queue (Queued), then Robots and
// Hold — the seen set before anything is to do, the counts before the
// queue, so that the caps hold, and the queue before the rules, so that
// they screen it. With Upfront set, Queued hears the first of the queue,
// and the rest waits in Summary.Later. Every field is optional.
type Visitor struct {
	// Known hears every URL the crawl had seen, queued or done: the
	// snapshot's seen file, on disk, and the hashes its journals added.
	Known func(base *SeenBase)
	// Pages and Variants hear what the URLs done count towards
	// (Options.Counts): pages per host, queries per path.
	Pages    func(host string, n int)
	Variants func(path string, n int)
	// Queued hears every URL to do, once, in the order to hand them
	// out: in the order found, but those sent before the stop last.
	Queued func(url string, depth, redirects int32)
	// Upfront, if more than 0, is how many URLs to do Queued hears
	// before Replay returns (a batch more, at most); the rest wait on
	// disk, in Summary.Later (backlog.go). 0: all of them.
	Upfront int
	// Robots hears each host's latest robots.txt that has not expired.
	Robots func(origin string, until time.Time, body []byte)
	// Hold hears each server's longest Retry-After hold that has not
	// passed.
	Hold func(authority string, until time.Time)
}

// Summary says what a replay found.
type Summary struct {
	Done     int  // URLs done
	ToDo     int  // URLs to do, as told to Queued
	Finished bool // the crawl had ended with nothing left to do
	// Later is the rest of the queue, past Visitor.Upfront, or nil. Its
	// taker reads it to the end, or closes it.
	Later *Backlog
}

// Replay reads the crawl's log — its last snapshot and the journals after
// it — and tells v what it holds (log.go says what counts as done). out
// is the crawl's -o, or nil: a regular file is checked against the
// journal, and cut after what the journal vouches for. The last
// journal's torn or damaged tail is cut; damage with whole entries after
// it is copied aside, to the directory's damaged/ (damage.go). Each is
// said in a notice. Replay is called once, after Open and before Begin;
// it writes nothing Begin could not do without, and reads nothing twice
// but the journals since the snapshot.
func (j *Journal) Replay(now time.Time, v Visitor, out *Output) (Summary, error) {
	if out != nil && out.Regular() {
		j.out, j.check = out, out
	}
	if !j.resumed || j.newOut {
		// The O entries are for another file, or there are none: the
		// journal vouches for nothing in this one.
		j.check = nil
	}
	if !j.resumed {
		if j.out != nil && j.out.Size() > 0 {
			j.cutOutput(0, "the journal vouches for none of it")
		}
		return Summary{}, nil
	}
	for {
		sum, again, err := j.replay(now, v)
		if !again {
			j.sum = sum
			return sum, err
		}
	}
}

// replay is one try of Replay. When -o turns out damaged where the
// journal vouched for it, it rewrites the log (a fold) without what -o
// lost, and says to start again.
func (j *Journal) replay(now time.Time, v Visitor) (sum Summary, again bool, err error) {
	w := newWalk(j.key, j.check, j.opts.Counts)
	var queued []uint64 // the hashes of the URLs the journals queued
	w.onQueued = func(h uint64) { queued = append(queued, h) }
	var snap *os.File
	var files []*os.File // closed on return, unless a backlog reads them on
	defer func() { closeAll(files) }()
	var queue, entries int64
	if j.snapGen > 0 {
		if snap, err = os.Open(j.path("snapshot", j.snapGen)); err != nil {
			return sum, false, err
		}
		files = append(files, snap)
		if queue, entries, err = readSnapshotMeta(snap, w); err != nil {
			return sum, false, err
		}
	}
	j.otherFile(w) // the snapshot's size may be another -o's
	journals, err := j.openJournals()
	files = append(files, journals...)
	if err != nil {
		return sum, false, err
	}
	prev := j.snapGen
	sizes := make([]int64, len(journals)) // each journal's size once walked: the new run appends to the last
	for i, f := range journals {
		if gap(prev, j.gens[i]) {
			w.damage() // a journal removed: as if it were all damage
		}
		prev = j.gens[i]
		if err := j.walkJournal(f, w, i == len(journals)-1); err != nil {
			return sum, false, err
		}
		st, err := f.Stat()
		if err != nil {
			return sum, false, err
		}
		sizes[i] = st.Size()
	}
	if j.check != nil && w.outLen > j.check.Size() {
		// -o lost lines the snapshot vouched for, and no start has made
		// that good yet: the done log says whose, and they are to do
		// again.
		if err := j.recoverOutput(w.outLen); err != nil {
			return sum, false, err
		}
		return sum, true, nil
	}
	if j.out != nil && w.outBad {
		// -o does not hold what the journal vouched for: damaged, or
		// replaced, since. Cut it there, and rewrite the log so that no
		// later read of it counts what was cut (a fold trusts O entries).
		j.cutOutput(w.outLen, "it does not hold what the journal vouched for there (damaged or changed since): the pages from there are fetched again")
		if err := j.foldNow(); err != nil {
			return sum, false, err
		}
		return sum, true, nil
	}
	if j.newOut && j.out != nil && len(j.gens) > 0 {
		// Another -o: the O entries until now vouch for the file before,
		// which no later start could read them against. A fold counts
		// them as they stand, as this start does, so that every start
		// from here on reads only O entries for this file. The file
		// before is cut where they end.
		j.cutOldOutput(w.outLen)
		if err := j.foldNow(); err != nil {
			return sum, false, err
		}
		return sum, true, nil
	}
	j.otherOut = j.otherFile(w)
	why := "written as the crawl stopped, or damaged: their pages are fetched again"
	if j.otherOut {
		why = fmt.Sprintf("what the journal vouches for is %s's, and the entry that said the crawl went on in this file was lost (a power cut, or a damaged disk): none of this file's lines are counted, and their pages are fetched again", w.outFile)
	}
	switch {
	case j.newOut && j.out != nil:
		j.outLen = j.out.Size() // another file: its O entries start here
	case j.newOut:
	case j.out != nil && j.out.Size() > w.outLen:
		j.cutOutput(w.outLen, why)
		fallthrough
	default:
		j.outLen = w.outLen
	}

	// The seen set, as a fold merges it (fold.go): the journals' hashes,
	// sorted, against the snapshot's seen file, in one pass. A URL done
	// was queued first, but its Q entry may be in a damaged stretch: the
	// URLs done since count as seen too.
	journalQueued := len(queued)
	added := w.done.AppendHashes(queued)
	slices.Sort(added)
	added = slices.Compact(added)
	queued = nil
	old := newBits(len(added)) // whether the snapshot's seen file holds it
	if j.snapGen > 0 {
		if err := j.markSeen(j.snapGen, added, old); err != nil {
			return sum, false, err
		}
	}
	base := &SeenBase{InFile: w.seenN, key: j.key}
	if j.snapGen > 0 {
		base.File = j.path("seen", j.snapGen)
	}
	handed := newBits(len(added))
	isNew := func(h uint64) bool { // a URL queued since the snapshot, the first time
		i, _ := slices.BinarySearch(added, h)
		return !old.has(i) && handed.add(i)
	}
	for i, h := range added {
		if !old.has(i) {
			base.Added = append(base.Added, h)
		}
	}
	if v.Known != nil {
		v.Known(base)
	}

	for host, n := range w.pages {
		if v.Pages != nil {
			v.Pages(host, n)
		}
	}
	for path, n := range w.variants {
		if v.Variants != nil {
			v.Variants(path, n)
		}
	}
	emit := func(u Spilled) {
		sum.ToDo++
		if v.Queued != nil {
			v.Queued(u.URL, u.Depth, u.Redirects)
		}
	}
	handOut := func(emit func(Spilled), pass func()) error {
		return w.handOut(snap, queue, entries, journals, sizes, isNew, emit, pass)
	}
	if v.Upfront <= 0 {
		if err := handOut(emit, func() {}); err != nil {
			return sum, false, err
		}
	} else {
		// At most: every entry of the snapshot's queue and of the
		// journals' is one URL to do, and so is every URL done again.
		left := w.snapQueue + int64(journalQueued) + int64(len(w.undone))
		later := startBacklog(left, min(v.Upfront, backlogBatch), files, handOut)
		files = nil // the backlog's now
		for sum.ToDo < v.Upfront {
			urls, err := later.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				later.Close()
				return sum, false, err
			}
			for _, u := range urls {
				emit(u)
			}
		}
		if sum.ToDo >= v.Upfront {
			sum.Later = later
		}
	}
	for origin, e := range w.robots {
		if e.until.After(now) && v.Robots != nil {
			v.Robots(origin, e.until, e.body)
		}
	}
	for authority, until := range w.holds {
		if until.After(now) && v.Hold != nil {
			v.Hold(authority, until)
		}
	}
	sum.Done, sum.Finished = w.doneN, w.finished
	return sum, false, nil
}

// otherFile, at a start that goes on with the crawl's -o, says whether
// what w vouched for so far was measured on another -o file; if so, none
// of it counts for this one (walk.otherFile). A start with a new -o
// (newOut) reads the O entries for the file before, as they stand, and
// folds them away.
func (j *Journal) otherFile(w *walk) bool {
	return !j.newOut && j.settings.Output != "" && w.otherFile(j.settings.Output)
}

// walkJournal is the first pass over one journal. Damage with whole
// entries after it is copied aside; the last journal's torn tail is cut
// (and copied aside if it is damage rather than a write cut short), so
// that Begin appends after whole entries; another journal's tail is
// damage.
func (j *Journal) walkJournal(f *os.File, w *walk, last bool) error {
	good, err := scanFile(f, 0, w.add, func(at, end int64, lines int) {
		w.damage()
		j.copyAside(f, at, end, plural(lines, "damaged line"),
			"no record after them is counted done, so what they named is found again")
	})
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil || st.Size() == good {
		return err
	}
	tail := make([]byte, st.Size()-good)
	if _, err := f.ReadAt(tail, good); err != nil {
		return err
	}
	if !last {
		w.damage()
		j.copyAside(f, good, st.Size(), "a damaged tail", "no record after it is counted done, so what it named is found again")
		return nil
	}
	if bytes.ContainsAny(tail, "\n\x00") {
		j.copyAside(f, good, st.Size(), "a damaged tail (a power cut, or a damaged disk)", "cut; the records it held are not counted done, so what it named is found again")
	} else {
		j.notices = append(j.notices, fmt.Sprintf("%s: cut %d bytes after its last whole entry, a write cut short (by a stop, or a power cut): the records it held are not counted done, so what it named is found again",
			f.Name(), len(tail)))
	}
	if err := truncate(f.Name(), good); err != nil {
		return err
	}
	return nil
}

// handOut is the second pass: it tells emit every URL to do, once each —
// the snapshot's queue without those done since, then the journals' Q
// entries that isNew says are new — in order, but those sent before a
// stop last.
func (w *walk) handOut(snap *os.File, queue, entries int64, journals []*os.File, sizes []int64, isNew func(h uint64) bool, emit func(Spilled), pass func()) error {
	var last []Spilled
	take := func(e entry, h uint64) {
		u := Spilled{URL: e.url, Depth: e.depth, Redirects: e.redirects}
		if _, sent := w.unsent[h]; sent {
			last = append(last, u)
			return
		}
		emit(u)
	}
	if snap != nil {
		err := readSnapshotQueue(snap, queue, entries, func(e entry) {
			if h := w.key.Hash(e.url); !w.done.HasHash(h) {
				take(e, h)
			} else {
				pass()
			}
		})
		if err != nil {
			return err
		}
	}
	for i, f := range journals {
		_, err := scanRange(f, 0, sizes[i], func(e entry) {
			if e.kind != kindQueued {
				return
			}
			if h := w.key.Hash(e.url); !w.done.HasHash(h) && !w.isUndone(h) && isNew(h) {
				take(e, h)
			} else {
				pass()
			}
		}, func(int64, int64, int) {})
		if err != nil {
			return err
		}
	}
	for _, e := range w.undone {
		if e.kind != 0 {
			take(entry{kind: kindQueued, url: e.url, depth: e.depth, redirects: e.redirects}, w.key.Hash(e.url))
		} else {
			pass()
		}
	}
	for _, u := range last {
		emit(u)
	}
	return nil
}

// openJournals opens the journals after the snapshot, in order.
func (j *Journal) openJournals() ([]*os.File, error) {
	var files []*os.File
	for _, g := range j.gens {
		f, err := os.Open(j.path("journal", g))
		if err != nil {
			return files, err
		}
		files = append(files, f)
	}
	return files, nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// markSeen reads seen.N, once, front to back, and gives old the bit of
// each hash of added (sorted, without repeats) that it holds.
func (j *Journal) markSeen(gen int, added []uint64, old bits) error {
	i := 0
	return readSeen(j.path("seen", gen), j.key.Hash(seenCheck), func(int) {}, func(h uint64) {
		for i < len(added) && added[i] < h {
			i++
		}
		if i < len(added) && added[i] == h {
			old.add(i)
			i++
		}
	})
}

// A SeenBase is what a stopped crawl had seen: its snapshot's seen file,
// on disk, and the hashes of the URLs its journals queued or did since,
// which the file does not hold. A crawl stands its seen set on it: in
// memory when it is small (Each), on disk when not (SeenDisk).
type SeenBase struct {
	File   string   // the snapshot's seen file (seenfile.go); "" if there is no snapshot
	InFile int      // how many hashes File holds
	Added  []uint64 // the journals' hashes, sorted, without repeats, none in File
	key    urlnorm.SeenKey
}

// Len is how many URLs it holds.
func (b *SeenBase) Len() int { return b.InFile + len(b.Added) }

// Each calls fn with every hash it holds: File's, read from disk, then
// Added's.
func (b *SeenBase) Each(fn func(h uint64)) error {
	if b.File != "" {
		if err := readSeen(b.File, b.key.Hash(seenCheck), func(int) {}, fn); err != nil {
			return err
		}
	}
	for _, h := range b.Added {
		fn(h)
	}
	return nil
}
