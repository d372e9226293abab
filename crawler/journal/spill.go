package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
)

// Spill keeps the overflow of a crawl's per-host queues on disk, so that
// a frontier of millions of URLs costs memory for a bounded number of
// them. A host whose queue is long has its later URLs written in chunks,
// files of entries in the journal's format, and read back in order when
// its queue in memory runs low: first in, first out still holds.
//
// Its methods block on the disk: the crawler calls them from its
// executor, never from a loop. Chunk files are not state: a crawl that
// stops leaves its queued URLs in the journal (with --state) or loses
// them (without), and a new Spill empties its directory.
type Spill struct {
	dir  string
	temp bool
	seq  atomic.Uint64
}

// Spilled is one URL in a chunk.
type Spilled struct {
	URL              string
	Depth, Redirects int32
}

// OpenSpill opens dir for spilled queues, emptying what a past run left;
// with dir "", a temporary directory, removed by Close.
func OpenSpill(dir string) (*Spill, error) {
	s := &Spill{dir: dir}
	if dir == "" {
		d, err := os.MkdirTemp("", "loopkit-spill-")
		if err != nil {
			return nil, err
		}
		s.dir, s.temp = d, true
		return s, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	return s, os.MkdirAll(dir, 0o755)
}

// Dir is the directory it keeps its chunks in.
func (s *Spill) Dir() string { return s.dir }

// Name is the name of a new chunk: names are handed out in order, before
// the chunk is written, so a host's chunks are read in the order made.
func (s *Spill) Name() string {
	return filepath.Join(s.dir, fmt.Sprintf("%012d.chunk", s.seq.Add(1)))
}

// Write writes a chunk.
func (s *Spill) Write(name string, urls []Spilled) error {
	var b []byte
	for _, u := range urls {
		b = AppendQueued(b, u.URL, u.Depth, u.Redirects)
	}
	return os.WriteFile(name, b, 0o644)
}

// Read reads a chunk whole, and removes its file.
func (s *Spill) Read(name string) ([]Spilled, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []Spilled
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, maxEntry)
	for sc.Scan() {
		e, err := parseEntry(sc.Bytes())
		if err != nil || e.kind != kindQueued {
			return nil, errors.Join(errBadEntry, fmt.Errorf("%s: damaged", name))
		}
		out = append(out, Spilled{URL: e.url, Depth: e.depth, Redirects: e.redirects})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, os.Remove(name)
}

// Close removes a temporary directory.
func (s *Spill) Close() error {
	if s.temp {
		return os.RemoveAll(s.dir)
	}
	return nil
}
