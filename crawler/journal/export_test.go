package journal

import "testing"

// SetDoneLogBuffer makes folds append their done log entries n bytes at
// a time, until the test ends.
func SetDoneLogBuffer(t *testing.T, n int) {
	was := doneLogBuffer
	doneLogBuffer = n
	t.Cleanup(func() { doneLogBuffer = was })
}

// WaitFold waits for the fold under way, if one is, and returns what the
// journal's next Write would say of it.
func (j *Journal) WaitFold() error {
	j.mu.Lock()
	fo := j.folding
	j.mu.Unlock()
	if fo != nil {
		<-fo.done
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// StartEntry is the X entry a start writes.
func StartEntry(outLen int64, newOutput bool) []byte {
	n := int64(0)
	if newOutput {
		n = 1
	}
	return appendNumbers(nil, kindStart, outLen, n)
}

// WriteSeenFile writes a seen file (seen.N's format) of sorted at path,
// for a key.
func WriteSeenFile(path string, key interface{ Hash(string) uint64 }, sorted []uint64) error {
	w, err := createSeen(path, key.Hash(seenCheck))
	if err != nil {
		return err
	}
	for _, h := range sorted {
		w.add(h)
	}
	return w.close()
}

// UndoneEntry is the U entry a start writes for a page whose line in -o
// was lost below a snapshot (donelog.go).
func UndoneEntry(url string, depth int32) []byte {
	return appendQueued(nil, kindUndone, url, depth, 0)
}
