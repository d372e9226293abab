package journal

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"time"
)

// A fold writes the next snapshot: the last snapshot and the journals
// after it, read as a start reads them (log.go), written as what is left
// (snapshot.go, seenfile.go). Then those files are removed, and a start
// reads the new snapshot and the journal after it: what is left to do,
// not the crawl's history.
//
// A running crawl folds when the journals since the snapshot have grown
// to half the snapshot's size (at least Options.FoldMin): the journal
// goes on in a new file, and a goroutine folds the ones before it, off
// the loops, while the crawl goes on. A fold writes the snapshot again
// for every half of it the journals wrote, so folding costs a constant
// per entry, however long the crawl; and a start reads at most one and a
// half snapshots' worth.
//
// The seen set is folded as IRLbot's DRUM merges: the hashes of the URLs
// the journals added, sorted, are merged with the last seen file, sorted
// too, into the next one, in one pass; the merge finds which of them the
// snapshot knew already. It keeps in memory the journals' hashes, not the
// crawl's.
type folding struct {
	stopping chan struct{}
	done     chan struct{}
}

// errFoldStopped is a fold stopped by Close: the next start does it.
var errFoldStopped = errors.New("journal: the fold was stopped")

func (fo *folding) stop() {
	select {
	case <-fo.stopping:
	default:
		close(fo.stopping)
	}
	<-fo.done
}

func (fo *folding) stopped() bool {
	select {
	case <-fo.stopping:
		return true
	default:
		return false
	}
}

// maybeFold, with j.mu held, starts a fold if the journals since the
// snapshot are long enough and none runs: the journal goes on in a new
// file, and the ones before it are folded on a goroutine.
func (j *Journal) maybeFold() {
	if j.size < j.foldAt || j.folding != nil || j.err != nil {
		return
	}
	if err := j.f.Sync(); err != nil {
		j.err = fmt.Errorf("syncing the journal: %w", err)
		return
	}
	next := j.gen + 1
	f, err := os.OpenFile(j.path("journal", next), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err == nil {
		err = syncDir(j.dir)
	}
	if err != nil {
		j.err = fmt.Errorf("starting a new journal: %w", err)
		return
	}
	j.f.Close()
	j.f, j.gen = f, next
	snap, gens, folded := j.snapGen, slices.Clone(j.gens), j.size
	j.gens = append(j.gens, next)
	fo := &folding{stopping: make(chan struct{}), done: make(chan struct{})}
	j.folding = fo
	go func() {
		defer close(fo.done)
		err := j.fold(snap, gens, nil, fo)
		j.mu.Lock()
		defer j.mu.Unlock()
		j.folding = nil
		switch {
		case errors.Is(err, errFoldStopped):
		case err != nil:
			j.err = fmt.Errorf("folding the journal into a snapshot: %w", err)
		default:
			j.snapGen = gens[len(gens)-1]
			j.gens = slices.DeleteFunc(j.gens, func(g int) bool { return g <= j.snapGen })
			j.size -= folded
			j.foldAt = j.foldThreshold()
		}
	}()
}

// foldNow folds every journal at once, checking -o's lines against the
// journal as a start does: a start that found -o damaged rewrites the
// log so that nothing counts what it cut.
func (j *Journal) foldNow() error {
	if len(j.gens) == 0 {
		return nil
	}
	if err := j.fold(j.snapGen, j.gens, j.check, nil); err != nil {
		return err
	}
	j.snapGen, j.gens = j.gens[len(j.gens)-1], nil
	return nil
}

// foldThreshold is how long the journals since the snapshot grow before
// they are folded.
func (j *Journal) foldThreshold() int64 { return max(j.opts.FoldMin, j.snapshotSize()/2) }

// snapshotSize is how many bytes the last snapshot and its seen file
// take: what a fold writes again.
func (j *Journal) snapshotSize() int64 {
	var n int64
	for _, name := range []string{"snapshot", "seen"} {
		if st, err := os.Stat(j.path(name, j.snapGen)); err == nil {
			n += st.Size()
		}
	}
	return n
}

// fold folds snapshot snap and the journals gens into snapshot number
// gens' last, and removes what it replaced. check, if not nil, is -o to
// check O entries against. fo, if not nil, may stop it.
func (j *Journal) fold(snap int, gens []int, check *Output, fo *folding) error {
	number := gens[len(gens)-1]
	w := newWalk(j.key, check, j.opts.Counts)
	var added []uint64                                       // the hashes of the URLs the journals added
	w.onQueued = func(h uint64) { added = append(added, h) } // a URL done was queued first
	done := j.doneLogWriter()                                // the O entries counted, appended to the done log as they are
	defer done.close()
	w.onMark = done.add
	var sf *os.File
	var queue, entries int64
	if snap > 0 {
		var err error
		if sf, err = os.Open(j.path("snapshot", snap)); err != nil {
			return err
		}
		defer sf.Close()
		if queue, entries, err = readSnapshotMeta(sf, w); err != nil {
			return err
		}
		if check != nil { // a start's: its size for this -o, as replay has it
			j.otherFile(w)
		}
	}
	journals := make([]*os.File, 0, len(gens))
	sizes := make([]int64, 0, len(gens))
	defer func() { closeAll(journals) }()
	prev := snap
	for _, g := range gens {
		f, err := os.Open(j.path("journal", g))
		if err != nil {
			return err
		}
		journals = append(journals, f)
		if gap(prev, g) {
			w.damage()
		}
		prev = g
		good, err := scanFile(f, 0, w.add, func(int64, int64, int) { w.damage() })
		if err != nil {
			return err
		}
		st, err := f.Stat()
		if err != nil {
			return err
		}
		sizes = append(sizes, good) // what was walked: handOut reads no further
		if st.Size() > good {
			// Bytes past the last whole entry: a start cut the last
			// journal's, so these are an earlier journal's damaged tail,
			// which a start reads as damage (walkJournal). So does a fold.
			w.damage()
		}
		if fo != nil && fo.stopped() {
			return errFoldStopped
		}
	}
	if j.out != nil {
		// The snapshot vouches for -o's bytes up to w.outLen: they must
		// survive a power cut before it does, and so must the done log's
		// record of them.
		if err := j.out.Sync(); err != nil {
			return err
		}
	}
	if err := done.sync(); err != nil {
		return err
	}
	slices.Sort(added)
	added = slices.Compact(added)
	// Two bits for each hash the journals added, rather than two more
	// sets: whether the snapshot knew it already, and whether it was
	// handed out yet (a URL queued again, on another loop, is not).
	old, handed := newBits(len(added)), newBits(len(added))
	seen, err := j.mergeSeen(snap, number, added, old)
	if err != nil {
		return err
	}
	s, err := createSnapshot(j.path("snapshot", number))
	if err != nil {
		return err
	}
	w.writeMeta(s, number, seen, time.Now())
	err = w.handOut(sf, queue, entries, journals, sizes,
		func(h uint64) bool {
			i, _ := slices.BinarySearch(added, h)
			return !old.has(i) && handed.add(i)
		},
		func(u Spilled) {
			if s.n%4096 == 0 && fo != nil && fo.stopped() {
				s.err = errFoldStopped // a crawl that ends does not wait for the rest
			}
			s.put(AppendQueued(nil, u.URL, u.Depth, u.Redirects))
		}, func() {})
	if err == nil {
		err = s.err
	}
	if err != nil {
		s.abandon()
		return err
	}
	if err := s.close(); err != nil {
		return err
	}
	if err := syncDir(j.dir); err != nil {
		return err
	}
	for _, g := range gens {
		os.Remove(j.path("journal", g))
	}
	if snap > 0 {
		os.Remove(j.path("snapshot", snap))
		os.Remove(j.path("seen", snap))
	}
	return syncDir(j.dir)
}

// mergeSeen writes seen.number: the hashes of seen.snap (if any) and
// added (sorted, without repeats), merged. old gets the bit of each hash
// of added that seen.snap held. It returns how many hashes it wrote.
func (j *Journal) mergeSeen(snap, number int, added []uint64, old bits) (int, error) {
	check := j.key.Hash(seenCheck)
	out, err := createSeen(j.path("seen", number)+".tmp", check)
	if err != nil {
		return 0, err
	}
	i := 0
	flush := func(upTo uint64) { // writes the added hashes below upTo
		for ; i < len(added) && added[i] < upTo; i++ {
			out.add(added[i])
		}
	}
	if snap > 0 {
		err = readSeen(j.path("seen", snap), check, func(int) {}, func(h uint64) {
			flush(h)
			if i < len(added) && added[i] == h {
				old.add(i)
				i++
			}
			out.add(h)
		})
	}
	flush(^uint64(0))
	if i < len(added) { // the largest hash there is
		out.add(added[i])
	}
	n := int(out.n)
	if cerr := out.close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(j.path("seen", number)+".tmp", j.path("seen", number))
	}
	if err != nil {
		os.Remove(j.path("seen", number) + ".tmp")
	}
	return n, err
}

// bits is a set of small numbers, a bit each.
type bits []uint64

func newBits(n int) bits { return make(bits, (n+63)/64) }

func (b bits) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }

// add adds i, and reports whether it was new.
func (b bits) add(i int) bool {
	if b.has(i) {
		return false
	}
	b[i/64] |= 1 << (i % 64)
	return true
}
