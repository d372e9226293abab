package journal

import (
	"errors"
	"path/filepath"
	"testing"
)

// Numbers in entries: negative ones are read as negative, an empty field
// is no number, and an O entry must vouch for at least one byte, from a
// place in the file.
func TestParseEntryNumbers(t *testing.T) {
	if n, ok := parseInt([]byte("-1234")); !ok || n != -1234 {
		t.Fatalf("parseInt(-1234) = %d, %v", n, ok)
	}
	if _, ok := parseInt(nil); ok {
		t.Fatal("an empty field read as a number")
	}
	hold := appendCount(nil, kindHold, "a.test", -5)
	if e, err := parseEntry(hold[:len(hold)-1]); err != nil || e.n[0] != -5 {
		t.Fatalf("a hold of -5: %+v, %v", e, err)
	}
	for name, b := range map[string][]byte{
		"an empty depth":  seal([]byte("Q\t\t10\thttp://a.test/"), 0),
		"an O entry of 0": appendMark(nil, 10, 10, 0, []Line{{URL: "http://a.test/"}}),
		"an O entry back": appendMark(nil, 10, 5, 0, []Line{{URL: "http://a.test/"}}),
		"an O entry at -": appendMark(nil, -3, 5, 0, []Line{{URL: "http://a.test/"}}),
	} {
		if e, err := parseEntry(b[:len(b)-1]); !errors.Is(err, errBadEntry) {
			t.Errorf("%s: parsed as %+v, %v", name, e, err)
		}
	}
}

// A seen file whose hashes repeat, or whose count is wrong (though its
// checksum matches), is damaged.
func TestReadSeenRefusesRepeatsAndAWrongCount(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, hashes []uint64, extra uint64) string {
		path := filepath.Join(dir, name)
		w, err := createSeen(path, 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hashes {
			w.add(h)
		}
		w.n += extra
		if err := w.close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	none := func(int) {}
	if err := readSeen(write("good", []uint64{1, 2}, 0), 7, none, func(uint64) {}); err != nil {
		t.Fatalf("a good seen file: %v", err)
	}
	if err := readSeen(write("repeat", []uint64{1, 2, 2}, 0), 7, none, func(uint64) {}); !errors.Is(err, errDamagedFile) {
		t.Fatalf("a repeated hash: %v", err)
	}
	if err := readSeen(write("count", []uint64{1, 2}, 1), 7, none, func(uint64) {}); !errors.Is(err, errDamagedFile) {
		t.Fatalf("a wrong count: %v", err)
	}
}
