package journal

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
)

// A seen file (seen.N, beside snapshot.N) is a crawl's seen set on disk:
// the hash (urlnorm.SeenKey.Hash) of every URL it had seen, sorted, as
// little-endian 64-bit words, 8 bytes a URL. Sorted, two of them merge in
// one pass, as IRLbot's DRUM merges its batches of new URLs into its
// sorted file on disk: a fold merges the hashes a journal added into the
// last snapshot's file and writes the next one (fold.go).
//
//	magic   "LKSEEN1\n"
//	check   the hash of seenCheck under the crawl's key: a file saved
//	        with another key is refused, not misread
//	hashes  count × 8 bytes, ascending
//	count   8 bytes
//	crc     4 bytes: CRC-32 of everything before it
const seenMagic = "LKSEEN1\n"

// seenCheck is the string whose hash tells the key a seen file was saved
// with.
const seenCheck = "loopkit seen file"

// seenWriter writes a seen file, hash after hash, in ascending order.
type seenWriter struct {
	f    *os.File
	w    *bufio.Writer
	crc  hash.Hash32
	n    uint64
	last uint64
	buf  [8]byte
}

func createSeen(path string, check uint64) (*seenWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	s := &seenWriter{f: f, crc: crc32.NewIEEE()}
	s.w = bufio.NewWriterSize(io.MultiWriter(f, s.crc), 256<<10)
	s.w.WriteString(seenMagic)
	s.word(check)
	return s, nil
}

func (s *seenWriter) word(v uint64) {
	binary.LittleEndian.PutUint64(s.buf[:], v)
	s.w.Write(s.buf[:])
}

// add writes h, which is larger than every hash written before it.
func (s *seenWriter) add(h uint64) {
	s.word(h)
	s.n++
	s.last = h
}

// close writes the count and the checksum, and syncs the file.
func (s *seenWriter) close() error {
	s.word(s.n)
	err := s.w.Flush()
	if err == nil {
		binary.LittleEndian.PutUint32(s.buf[:4], s.crc.Sum32())
		_, err = s.f.Write(s.buf[:4])
	}
	if err == nil {
		err = s.f.Sync()
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readSeen calls fn with every hash of the seen file at path, in order.
// It says how many there are before the first (count, for a set to make
// room). A file saved under another key (check), cut, or whose checksum
// fails is an error; fn may have heard of some hashes by then.
func readSeen(path string, check uint64, count func(n int), fn func(h uint64)) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		// Written before its snapshot and removed after it, a seen
		// file missing beside its snapshot was taken away.
		return fmt.Errorf("%s: not there, though its snapshot is: %w", path, errDamagedFile)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	bad := func(why string) error { return fmt.Errorf("%s: %s: %w", path, why, errDamagedFile) }
	head := int64(len(seenMagic) + 8)
	if st.Size() < head+12 || (st.Size()-head-12)%8 != 0 {
		return bad("not the size of a seen file")
	}
	n := (st.Size() - head - 12) / 8
	crc := crc32.NewIEEE()
	r := bufio.NewReaderSize(io.TeeReader(io.LimitReader(f, st.Size()-4), crc), 256<<10)
	var buf [8]byte
	word := func() uint64 {
		io.ReadFull(r, buf[:])
		return binary.LittleEndian.Uint64(buf[:])
	}
	if _, err := io.ReadFull(r, buf[:len(seenMagic)]); err != nil || string(buf[:len(seenMagic)]) != seenMagic {
		return bad("not a seen file")
	}
	if word() != check {
		return bad("saved with another key than crawl.json's")
	}
	count(int(n))
	last := uint64(0)
	for range n {
		h := word()
		if h <= last {
			return bad("not in order")
		}
		fn(h)
		last = h
	}
	if word() != uint64(n) {
		return bad("its count is wrong")
	}
	want := crc.Sum32()
	if _, err := f.ReadAt(buf[:4], st.Size()-4); err != nil {
		return err
	}
	if binary.LittleEndian.Uint32(buf[:4]) != want {
		return bad("its checksum does not match")
	}
	return nil
}

// errDamagedFile says a snapshot or seen file is not what was written:
// not something a stop or a power cut does (they are written whole, then
// renamed), but a damaged disk or an edit.
var errDamagedFile = errors.New("damaged (a damaged disk, or an edit: a stop or a power cut leaves a snapshot whole or absent)")
