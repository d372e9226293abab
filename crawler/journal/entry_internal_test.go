package journal

import (
	"errors"
	"fmt"
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

// A line whose checksum matches but whose kind is no kind, or whose
// fields are not as many as its kind has, is damage: not an entry read
// with its numbers missing or misplaced.
func TestParseEntryRefusesUnknownKindsAndWrongFieldCounts(t *testing.T) {
	for name, b := range map[string][]byte{
		"a kind of two letters":     seal([]byte("QQ\t1\t10\thttp://a.test/"), 0),
		"an unknown kind":           seal([]byte("Y\t5"), 0),
		"an end with a number":      seal([]byte("E\t5"), 0),
		"a start with one number":   seal([]byte("X\t1"), 0),
		"a queued URL, no URL":      seal([]byte("Q\t1\t10"), 0),
		"an empty kind":             seal([]byte("\t1"), 0),
		"a header, one number less": appendNumbers(nil, kindHeader, 2, 1, 0, 0, 0),
	} {
		if e, err := parseEntry(b[:len(b)-1]); !errors.Is(err, errBadEntry) {
			t.Errorf("%s: parsed as %+v, %v", name, e, err)
		}
	}
	// and the numbers of one that is whole, each in its place
	b := appendNumbers(nil, kindHeader, 2, 7, 300, 4, 5, 1)
	if e, err := parseEntry(b[:len(b)-1]); err != nil || e.kind != kindHeader || fmt.Sprint(e.n) != "[2 7 300 4 5 1]" {
		t.Fatalf("a header: %+v, %v", e, err)
	}
}

// parseInt reads the 18 digits a number may have, each digit for its
// value, and no more; parseHex32 reads exactly 8 lower-case hex digits.
func TestParseNumbersAtTheirBounds(t *testing.T) {
	for in, want := range map[string]int64{
		"0": 0, "9": 9, "9081726354": 9081726354, "-0": 0,
		"999999999999999999": 999999999999999999, "-123456789012345678": -123456789012345678,
	} {
		if n, ok := parseInt([]byte(in)); !ok || n != want {
			t.Errorf("parseInt(%s) = %d, %v; want %d", in, n, ok, want)
		}
	}
	for _, in := range []string{"-", "1000000000000000000", "1a", "/", ":", "+1", " 1"} {
		if n, ok := parseInt([]byte(in)); ok {
			t.Errorf("parseInt(%q) = %d, read as a number", in, n)
		}
	}
	for in, want := range map[string]uint32{"09af09af": 0x09af09af, "00000000": 0, "ffffffff": 0xffffffff, "12345678": 0x12345678} {
		if n, ok := parseHex32([]byte(in)); !ok || n != want {
			t.Errorf("parseHex32(%s) = %x, %v; want %x", in, n, ok, want)
		}
	}
	for _, in := range []string{"DEADBEEF", "0000000", "000000000", "0000000g", "0000000/", "0000000:", "0000000`"} {
		if n, ok := parseHex32([]byte(in)); ok {
			t.Errorf("parseHex32(%q) = %x, read as a checksum", in, n)
		}
	}
}
