package main

import (
	"encoding/json"
	"os"
)

// jsonlFile writes one JSON object per line. Each record is encoded whole
// and written with a single write(2) as soon as it is made, so a crash or
// a kill -9 loses nothing already recorded and never leaves half a line.
// (Buffering would save one system call per page, a few microseconds, but
// a kill would lose the buffer; a page took a network round trip anyway.
// Strictly, Linux can cut a write short if the process is killed during
// the copy itself: a window of microseconds, not of a buffer's lifetime.)
type jsonlFile struct {
	f    *os.File
	line []byte
}

func createJSONL(path string) (*jsonlFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &jsonlFile{f: f}, nil
}

func (w *jsonlFile) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.line = append(append(w.line[:0], b...), '\n')
	_, err = w.f.Write(w.line)
	return err
}

func (w *jsonlFile) close() error { return w.f.Close() }
