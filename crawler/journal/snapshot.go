package journal

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"time"
)

// A snapshot (snapshot.N) is what a crawl had left after journal N: what
// is to do, and what a start needs beside it. With seen.N, the hashes of
// every URL it had seen (seenfile.go), it replaces the journals up to N,
// so that a start reads what is left, not the crawl's history. It is
// written in the journal's own format, entry after entry:
//
//	I  version  number  output  done  seen  finished
//	                          its header: -o's bytes vouched for, the
//	                          URLs done, the size of seen.N, and 1 if
//	                          the crawl had ended
//	F  path                   the -o file those bytes are of (version 2)
//	R, H                      robots.txt and holds not expired
//	C  host  pages            pages done per host (Config.MaxPagesPerHost)
//	V  path  queries          queries done per path (Config.MaxQueryVariants)
//	O  ...                    -o's lines vouched for past a gap: their turn
//	                          comes when the gap is filled
//	S  url                    pages sent and not done: handed out last
//	Q  depth  redirects  url  to do, in the order to hand them out
//	Z  entries                its trailer: how many entries came before
//
// It is written to snapshot.N.tmp, synced, and renamed: a stop leaves
// the old snapshot or the new one, whole.
const snapshotVersion = 2

// A version 1 snapshot has no F entry: it is read as before, its size
// taken to be the crawl's -o's.
const snapshotVersionWithoutFile = 1

// snapshotWriter writes a snapshot, entry after entry.
type snapshotWriter struct {
	path string
	f    *os.File
	w    *bufio.Writer
	n    int64
	err  error
}

func createSnapshot(path string) (*snapshotWriter, error) {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return nil, err
	}
	return &snapshotWriter{path: path, f: f, w: bufio.NewWriterSize(f, 256<<10)}, nil
}

// put writes an entry, sealed.
func (s *snapshotWriter) put(entry []byte) {
	if s.err == nil {
		_, s.err = s.w.Write(entry)
		s.n++
	}
}

// close writes the trailer, syncs the file and puts it in its place.
func (s *snapshotWriter) close() error {
	s.put(appendNumbers(nil, kindTrailer, s.n))
	err := s.err
	if err == nil {
		err = s.w.Flush()
	}
	if err == nil {
		err = s.f.Sync()
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(s.path+".tmp", s.path)
	}
	if err != nil {
		os.Remove(s.path + ".tmp")
	}
	return err
}

// abandon throws a snapshot being written away.
func (s *snapshotWriter) abandon() {
	s.f.Close()
	os.Remove(s.path + ".tmp")
}

// writeMeta writes a snapshot's header and what comes before its queue,
// from what w found: the state after its log.
func (w *walk) writeMeta(s *snapshotWriter, number int, seen int, now time.Time) {
	finished := int64(0)
	if w.finished {
		finished = 1
	}
	s.put(appendNumbers(nil, kindHeader, snapshotVersion, int64(number), w.outLen, int64(w.doneN), int64(seen), finished))
	var b []byte
	if w.outFile != "" {
		s.put(appendFile(b[:0], w.outFile))
	}
	for origin, e := range w.robots {
		if e.until.After(now) {
			s.put(AppendRobots(b[:0], origin, e.until, e.body))
		}
	}
	for authority, until := range w.holds {
		if until.After(now) {
			s.put(AppendHold(b[:0], authority, until))
		}
	}
	for host, n := range w.pages {
		s.put(appendCount(b[:0], kindPages, host, int64(n)))
	}
	for path, n := range w.variants {
		s.put(appendCount(b[:0], kindVariants, path, int64(n)))
	}
	for _, e := range w.pending {
		s.put(appendMark(b[:0], e.n[0], e.n[1], e.sum, e.lines))
	}
	for _, url := range w.unsent {
		s.put(AppendSent(b[:0], url))
	}
}

// readSnapshotMeta reads a snapshot's header and what comes before its
// queue into w, and returns where its queue starts and how many entries
// came before it. A snapshot that is
// not whole — its last entry is not its trailer — or has a damaged entry
// is an error: it was written whole and renamed, so that is a damaged
// disk or an edit.
func readSnapshotMeta(f *os.File, w *walk) (queue, entries int64, err error) {
	bad := func(why string) error { return fmt.Errorf("%s: %s: %w", f.Name(), why, errDamagedFile) }
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	tail := make([]byte, min(st.Size(), 64))
	if _, err := f.ReadAt(tail, st.Size()-int64(len(tail))); err != nil {
		return 0, 0, err
	}
	last := tail[bytes.LastIndexByte(tail[:max(len(tail)-1, 0)], '\n')+1:]
	trailer, err := parseEntry(bytes.TrimSuffix(last, []byte("\n")))
	if err != nil || trailer.kind != kindTrailer {
		return 0, 0, bad("it does not end with its trailer")
	}
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, st.Size()), 256<<10)
	for first := true; ; first = false {
		line, n, err := readEntry(r)
		if err != nil {
			return 0, 0, bad("cut short")
		}
		e, err := parseEntry(line)
		switch {
		case err != nil:
			return 0, 0, bad(fmt.Sprintf("a damaged entry at byte %d", queue))
		case first && (e.kind != kindHeader || len(e.n) != 6 || e.n[0] != snapshotVersion && e.n[0] != snapshotVersionWithoutFile):
			return 0, 0, bad("no header of this version")
		case e.kind == kindQueued || e.kind == kindTrailer:
			w.snapQueue = max(trailer.n[0]-entries, 0) // its Q entries, if the trailer is true
			return queue, entries, nil
		}
		queue += int64(n)
		entries++
		switch e.kind {
		case kindHeader:
			w.outLen, w.doneN, w.seenN, w.finished = e.n[2], int(e.n[3]), int(e.n[4]), e.n[5] == 1
		case kindFile:
			w.outFile = e.url
		case kindPages:
			w.pages[e.url] += int(e.n[0])
		case kindVariants:
			w.variants[e.url] += int(e.n[0])
		case kindOutput:
			w.pending[e.n[0]] = e
		default:
			w.add(e)
		}
	}
}

// readSnapshotQueue calls fn for each URL to do in a snapshot, in order,
// from queue to the trailer; entries came before it (readSnapshotMeta's
// answers).
func readSnapshotQueue(f *os.File, queue, entries int64, fn func(entry)) error {
	bad := func(why string) error { return fmt.Errorf("%s: %s: %w", f.Name(), why, errDamagedFile) }
	st, err := f.Stat()
	if err != nil {
		return err
	}
	r := bufio.NewReaderSize(io.NewSectionReader(f, queue, st.Size()-queue), 256<<10)
	for {
		line, _, err := readEntry(r)
		if err != nil {
			return bad("cut short")
		}
		e, err := parseEntry(line)
		switch {
		case err != nil:
			return bad("a damaged entry in its queue")
		case e.kind == kindTrailer && e.n[0] != entries:
			return bad("entries are missing")
		case e.kind == kindTrailer:
			return nil
		case e.kind != kindQueued:
			return bad("an entry out of place in its queue")
		}
		entries++
		fn(e)
	}
}
