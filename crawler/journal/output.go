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
// each line written whole. Write and Sync may be called from any
// goroutine.
type Output struct {
	path    string
	mu      sync.Mutex
	f       *os.File
	notices []string
}

// Create starts a new output file at path, emptying it if it exists.
func Create(path string) (*Output, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &Output{path: path, f: f}, nil
}

// Resume opens the output file of a crawl that goes on, for appending: a
// line torn by a stop in the middle of a write is cut, with a notice, and
// done is told the URL of every whole line — those are done. A line that
// is not a record is an error: the file is not this crawl's, and nothing
// in it is touched.
func Resume(path string, done func(url string)) (*Output, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	o := &Output{path: path, f: f}
	good, err := o.scan(done)
	if err == nil {
		err = o.cutAt(good)
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekEnd)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return o, nil
}

// ReadURLs calls fn with the URL of each whole line of the output file at
// path, in order: a resumed crawl's pages done. Read it after Resume has
// cut a torn last line.
func ReadURLs(path string, fn func(url string)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	o := &Output{path: path, f: f}
	_, err = o.scan(fn)
	return err
}

// scan reads the whole lines, and returns the offset after the last one.
func (o *Output) scan(done func(url string)) (good int64, err error) {
	r := bufio.NewReaderSize(o.f, 256<<10)
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

func (o *Output) cutAt(good int64) error {
	st, err := o.f.Stat()
	if err != nil || st.Size() == good {
		return err
	}
	o.notices = append(o.notices, fmt.Sprintf("%s: cut a torn last line (%d bytes, written when the crawl stopped); its URL is fetched again", o.path, st.Size()-good))
	return o.f.Truncate(good)
}

// Notices are what the operator should hear of: a torn line cut.
func (o *Output) Notices() []string { return o.notices }

// Write appends whole lines with one write(2).
func (o *Output) Write(lines []byte) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, err := o.f.Write(lines)
	return err
}

// Sync makes what was written survive a power cut.
func (o *Output) Sync() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.f.Sync()
}

// Close syncs and closes the file.
func (o *Output) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	err := o.f.Sync()
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	return err
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
