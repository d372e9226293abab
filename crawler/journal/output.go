package journal

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Output is the crawl's JSON Lines file (crawl -o): one record per line,
// each batch of lines written with one write(2). Write and Sync may be
// called from any goroutine.
//
// A regular file can be read back, so a crawl with a state directory
// vouches for its lines in the journal (AppendOutput) and cuts, at the
// next start, whatever the journal does not vouch for. A pipe, a terminal
// or /dev/null cannot be read back nor synced: its lines are written and
// that is all, and the journal says what is done with D entries.
type Output struct {
	path    string
	mu      sync.Mutex
	f       *os.File
	size    int64 // where the next line goes
	regular bool
	notices []string
}

// Create starts a new output at path: a regular file is emptied if it
// exists; a device or a pipe is written to as it is.
func Create(path string) (*Output, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	return newOutput(path, f)
}

// Append opens the output of a crawl that goes on, for appending: a
// regular file is opened to be read too, so that the journal's replay can
// check it and cut what it does not vouch for.
func Append(path string) (*Output, error) {
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if st, err := os.Stat(path); err != nil || st.Mode().IsRegular() {
		flags = os.O_RDWR | os.O_CREATE
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return nil, err
	}
	return newOutput(path, f)
}

func newOutput(path string, f *os.File) (*Output, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	o := &Output{path: path, f: f, regular: st.Mode().IsRegular()}
	if o.regular {
		o.size = st.Size()
	}
	return o, nil
}

// Resume opens the output of a fleet's process run again, for appending:
// a line torn by a stop in the middle of a write is cut, with a notice,
// and done is told the URL of every whole line. A line that is not a
// record is an error: the file is not this crawl's, and nothing in it is
// touched.
func Resume(path string, done func(url string)) (*Output, error) {
	o, err := Append(path)
	if err != nil || !o.regular {
		return o, err
	}
	good, err := o.scan(done)
	if err == nil && good < o.size {
		o.notices = append(o.notices, fmt.Sprintf("%s: cut a torn last line (%d bytes, written when the crawl stopped); its URL is fetched again", o.path, o.size-good))
		err = o.cut(good)
	}
	if err != nil {
		o.f.Close()
		return nil, err
	}
	return o, nil
}

// scan reads the whole lines, and returns the offset after the last one.
func (o *Output) scan(done func(url string)) (good int64, err error) {
	r := bufio.NewReaderSize(io.NewSectionReader(o.f, 0, o.size), 256<<10)
	var rec struct {
		URL string `json:"url"`
	}
	for n := 1; ; n++ {
		line, err := readLine(r)
		if errors.Is(err, io.EOF) {
			return good, nil // a last line without its newline is torn
		}
		if errors.Is(err, errLongLine) {
			return good, fmt.Errorf("%s, line %d: longer than any record, so not this crawl's output; nothing was changed", o.path, n)
		}
		if err != nil {
			return good, err
		}
		rec.URL = ""
		if err := json.Unmarshal(line, &rec); err != nil || rec.URL == "" {
			return good, fmt.Errorf("%s, line %d: not a crawl record, so not this crawl's output; nothing was changed", o.path, n)
		}
		if done != nil {
			done(rec.URL)
		}
		good += int64(len(line))
	}
}

// Notices are what the operator should hear of: a torn line cut.
func (o *Output) Notices() []string { return o.notices }

// Regular says whether the output is a regular file: one the journal
// vouches for line by line, and that a start may cut.
func (o *Output) Regular() bool { return o.regular }

// Size is how many bytes the output holds.
func (o *Output) Size() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.size
}

// Write appends whole lines with one write(2), and says at which offset
// they begin. A regular file is written at the offset the Output keeps
// (pwrite), not at the file's own: a cut (Truncate) leaves the file's
// offset where it was, and a write there would leave a hole of zeros.
func (o *Output) Write(lines []byte) (from int64, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	from = o.size
	var n int
	if o.regular {
		n, err = o.f.WriteAt(lines, from)
	} else {
		n, err = o.f.Write(lines)
	}
	o.size += int64(n)
	return from, err
}

// Sync makes what was written survive a power cut. A pipe or a device
// has nothing to sync.
func (o *Output) Sync() error {
	if !o.regular {
		return nil
	}
	return o.f.Sync()
}

// Close syncs and closes the file.
func (o *Output) Close() error {
	err := o.Sync()
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readAt reads the output's bytes from..to.
func (o *Output) readAt(from, to int64) ([]byte, error) {
	b := make([]byte, to-from)
	_, err := o.f.ReadAt(b, from)
	return b, err
}

// cut cuts the output at offset at, for good: the cut is synced before
// anything is written after it.
func (o *Output) cut(at int64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.f.Truncate(at); err != nil {
		return err
	}
	o.size = at
	return o.f.Sync()
}

// maxLine is longer than any record: a record holds a URL (at most
// --max_url_length, 2083 by default, escaped) and a few fields.
const maxLine = 1 << 20

var errLongLine = errors.New("journal: a line longer than any record")

// readLine reads one line with its newline, refusing one longer than
// maxLine (a file of zeros, /dev/zero, would otherwise be read for ever).
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		switch {
		case len(line) > maxLine:
			return nil, errLongLine
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		}
		return line, err
	}
}
