package journal

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// SeenDisk is the part of a crawl's seen set that memory does not hold:
// sorted files of URL hashes (urlnorm.SeenKey.Hash), 8 bytes a URL, as
// IRLbot's DRUM keeps the URLs it has seen. A batch of hashes is checked
// against a file in one pass, a merge of two sorted lists read front to
// back: no seek per URL, which on a disk would cost more than fetching
// the page. The price is that a URL's answer waits for its batch; the
// crawler (crawler/seen.go) keeps what it can in memory so that most
// repeats never wait.
//
// It stands on files it only reads — a snapshot's seen file, the hashes a
// restart's journals added (WriteSeenRun) — and keeps one file of its
// own, in dir, which Add rewrites merged with each batch it is given.
// Its methods block on the disk: call them from an executor, one at a
// time. Its own files are not state: a restart rebuilds the set from the
// journal, and Close removes them.
type SeenDisk struct {
	runs   []seenRun // read only: the files it stands on
	own    seenRun   // its own hashes; n == 0 until the first Add
	dir    string
	prefix string // its own files' names: prefix.1, prefix.2, ...
	gen    int
	buf    []byte // the read buffer, kept between passes
	read   int64  // bytes read by passes, for the crawl's statistics
}

// A seenRun is a sorted run of hashes in a file: n words from off.
type seenRun struct {
	f   *os.File
	off int64
	n   int64
}

// seenBlock is how much of a file a pass reads at a time.
const seenBlock = 1 << 20

// OpenSeenDisk makes a SeenDisk keeping its own files in dir, named from
// prefix, standing on the seen files at paths: a snapshot's (seen.N, in
// the seen file format: seenfile.go) or a run WriteSeenRun wrote. They are
// opened now and only read from then on: a fold that removes a snapshot's
// seen file later does not take it away from a SeenDisk reading it.
func OpenSeenDisk(dir, prefix string, paths ...string) (*SeenDisk, error) {
	d := &SeenDisk{dir: dir, prefix: prefix}
	for _, p := range paths {
		r, err := openSeenRun(p)
		if err != nil {
			d.Close()
			return nil, err
		}
		d.runs = append(d.runs, r)
	}
	return d, nil
}

// openSeenRun opens a seen file (with its header and trailer) or a bare
// run of words, told apart by the seen file's magic.
func openSeenRun(path string) (seenRun, error) {
	f, err := os.Open(path)
	if err != nil {
		return seenRun{}, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return seenRun{}, err
	}
	head := make([]byte, len(seenMagic))
	if n, _ := f.ReadAt(head, 0); n == len(head) && string(head) == seenMagic {
		// magic, check; count and checksum at the end (seenfile.go)
		return seenRun{f: f, off: int64(len(seenMagic) + 8), n: (st.Size() - int64(len(seenMagic)+8+12)) / 8}, nil
	}
	if st.Size()%8 != 0 {
		f.Close()
		return seenRun{}, fmt.Errorf("%s: %w", path, errDamagedFile)
	}
	return seenRun{f: f, n: st.Size() / 8}, nil
}

// Len is how many hashes its files hold, those it stands on included
// (a hash may be in two of them, if a restart's journals queued a URL the
// snapshot had: then it is counted twice).
func (d *SeenDisk) Len() int64 {
	n := d.own.n
	for _, r := range d.runs {
		n += r.n
	}
	return n
}

// BytesRead is how many bytes of its files the passes have read.
func (d *SeenDisk) BytesRead() int64 { return d.read }

// Absent returns those of sorted — hashes in ascending order, without
// repeats — that none of its files holds, in order, in sorted's storage.
// Each file is read once, front to back, and no further than the
// batch's largest hash.
func (d *SeenDisk) Absent(sorted []uint64) ([]uint64, error) {
	var err error
	runs := d.runs[:len(d.runs):len(d.runs)] // appended to below: never into d.runs
	for _, r := range append(runs, d.own) {
		if len(sorted) == 0 {
			break
		}
		if sorted, err = d.absentFrom(r, sorted); err != nil {
			return nil, err
		}
	}
	return sorted, nil
}

// absentFrom is Absent against one run: a merge of the two sorted lists
// that keeps the batch's hashes the run does not have.
func (d *SeenDisk) absentFrom(r seenRun, batch []uint64) ([]uint64, error) {
	kept, i := 0, 0
	err := d.scan(r, func(words []byte) bool {
		for ; len(words) >= 8 && i < len(batch); words = words[8:] {
			h := binary.LittleEndian.Uint64(words)
			for i < len(batch) && batch[i] < h {
				batch[kept] = batch[i]
				kept++
				i++
			}
			if i < len(batch) && batch[i] == h {
				i++ // the run has it: seen
			}
		}
		return i < len(batch)
	})
	if err != nil {
		return nil, err
	}
	kept += copy(batch[kept:], batch[i:])
	return batch[:kept], nil
}

// scan hands fn the words of r a block at a time, until fn says it has
// had enough or the run ends.
func (d *SeenDisk) scan(r seenRun, fn func(words []byte) (more bool)) error {
	if d.buf == nil {
		d.buf = make([]byte, seenBlock)
	}
	end := r.off + 8*r.n
	for at := r.off; at < end; {
		n := int(min(int64(len(d.buf)), end-at))
		if _, err := r.f.ReadAt(d.buf[:n], at); err != nil {
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("%s: cut short: %w", r.f.Name(), errDamagedFile)
			}
			return err
		}
		d.read += int64(n)
		at += int64(n)
		if !fn(d.buf[:n]) {
			break
		}
	}
	return nil
}

// Add merges sorted — ascending, without repeats, none of them in its
// files (Absent's answer) — into its own file: the file is written anew,
// the old one's hashes and the batch's in order, and the old one removed.
// Nothing is synced: its files are not state.
func (d *SeenDisk) Add(sorted []uint64) error {
	if len(sorted) == 0 {
		return nil
	}
	d.gen++
	path := filepath.Join(d.dir, d.prefix+"."+strconv.Itoa(d.gen))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, seenBlock)
	var word [8]byte
	put := func(h uint64) {
		binary.LittleEndian.PutUint64(word[:], h)
		w.Write(word[:]) // a bufio.Writer keeps its first error: Flush says
	}
	i := 0
	if d.own.n > 0 {
		err = d.scan(d.own, func(words []byte) bool {
			for ; len(words) >= 8; words = words[8:] {
				h := binary.LittleEndian.Uint64(words)
				for ; i < len(sorted) && sorted[i] < h; i++ {
					put(sorted[i])
				}
				put(h)
			}
			return true
		})
	}
	for ; i < len(sorted); i++ {
		put(sorted[i])
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	old := d.own
	d.own = seenRun{f: f, n: old.n + int64(len(sorted))}
	if old.f != nil {
		old.f.Close()
		os.Remove(old.f.Name())
	}
	return nil
}

// Close closes its files, and removes its own.
func (d *SeenDisk) Close() error {
	for _, r := range d.runs {
		r.f.Close()
	}
	d.runs = nil
	if d.own.f != nil {
		d.own.f.Close()
		os.Remove(d.own.f.Name())
		d.own = seenRun{}
	}
	return nil
}

// WriteSeenRun writes sorted — ascending, without repeats — to a new file
// at path as a bare run of words, for SeenDisks to stand on: the hashes a
// restart's journals added to its snapshot's seen file (SeenBase).
func WriteSeenRun(path string, sorted []uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, seenBlock)
	var word [8]byte
	for _, h := range sorted {
		binary.LittleEndian.PutUint64(word[:], h)
		w.Write(word[:])
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
