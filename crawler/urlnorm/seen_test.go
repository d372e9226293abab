package urlnorm

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"testing"
)

func TestSeen(t *testing.T) {
	var s Seen // the zero value is ready to use
	if s.Has("http://example.com/") || s.Len() != 0 {
		t.Fatal("empty Seen reports content")
	}
	steps := []struct {
		add   string
		added bool
		len   int
	}{
		{"http://example.com/", true, 1},
		{"http://example.com/", false, 1},
		{"http://example.com/a", true, 2},
		{"", true, 3}, // any string may be added, even an empty one
		{"http://example.com/a", false, 3},
	}
	for _, st := range steps {
		if got := s.Add(st.add); got != st.added {
			t.Errorf("Add(%q) = %v, want %v", st.add, got, st.added)
		}
		if !s.Has(st.add) {
			t.Errorf("Has(%q) = false after Add", st.add)
		}
		if s.Len() != st.len {
			t.Errorf("after Add(%q): Len = %d, want %d", st.add, s.Len(), st.len)
		}
	}
}

// TestSeenGrows adds enough URLs to force several resizes and checks that
// nothing is lost or invented on the way.
func TestSeenGrows(t *testing.T) {
	const n = 20000
	var s Seen
	for i := range n {
		if !s.Add(testURL(i)) {
			t.Fatalf("Add(%q) = false for a new URL", testURL(i))
		}
	}
	if s.Len() != n {
		t.Fatalf("Len = %d, want %d", s.Len(), n)
	}
	for i := range n {
		if !s.Has(testURL(i)) {
			t.Fatalf("Has(%q) = false after growing", testURL(i))
		}
		if s.Has(testURL(n + i)) {
			t.Fatalf("Has(%q) = true, never added", testURL(n+i))
		}
	}
}

func testURL(i int) string {
	return "https://example.com/page/" + strconv.Itoa(i) + "?ref=home"
}

// BenchmarkSeenMillion adds a million distinct URLs to a fresh Seen and
// reports the heap it keeps per URL. The URL strings themselves are
// garbage by the time the heap is measured: only the table is counted.
func BenchmarkSeenMillion(b *testing.B) {
	const n = 1_000_000
	var perURL float64
	for i := 0; i < b.N; i++ {
		before := liveHeap()
		s := new(Seen)
		for j := range n {
			s.Add(testURL(j))
		}
		after := liveHeap()
		perURL = float64(after-before) / n
		runtime.KeepAlive(s)
	}
	b.ReportMetric(perURL, "bytes/url")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/add")
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestOneSpellingPerURL: credentials and Unicode host names once made one
// page several URLs to the seen set. Through Normalize, every
// spelling below is the same URL, added once.
func TestOneSpellingPerURL(t *testing.T) {
	var s Seen
	for i, in := range []string{
		"http://xn--bcher-kva.de/x",
		"http://bücher.de/x",
		"http://BÜCHER.de/x",
		"http://b%C3%BCcher.de:80/x#top",
		"http://XN--BCHER-KVA.DE./x",
		"http://u:p@bücher.de/x",
		"http://@bücher.de/x",
		"http://u@xn--bcher-kva.de/x",
	} {
		n, err := Normalize(in)
		if err != nil {
			t.Fatalf("Normalize(%q): %v", in, err)
		}
		if added := s.Add(n); added != (i == 0) {
			t.Errorf("Add(Normalize(%q) = %q) = %v", in, n, added)
		}
	}
	if s.Len() != 1 {
		t.Errorf("Len = %d, want 1", s.Len())
	}
}

// The keyed hash is SipHash: with two rounds per word and four at the
// end, it gives the test vectors of Aumasson and Bernstein's paper (key
// 00 01 … 0f; messages 00 01 … of each length).
func TestSipHashVectors(t *testing.T) {
	k0, k1 := uint64(0x0706050403020100), uint64(0x0f0e0d0c0b0a0908)
	msg := make([]byte, 16)
	for i := range msg {
		msg[i] = byte(i)
	}
	for _, v := range []struct {
		n    int
		want uint64
	}{
		{0, 0x726fdb47dd0e0e31},
		{7, 0xab0200f58b01d137},
		{8, 0x93f5f5799a932462}, // one whole word, an empty last one
		{15, 0xa129ca6149be45e5},
		{16, 0x3f2acc7f57c29bdb},
	} {
		if got := sipHash(k0, k1, string(msg[:v.n]), 2, 4); got != v.want {
			t.Errorf("SipHash-2-4 of %d bytes = %#x, want %#x", v.n, got, v.want)
		}
	}
}

// TestSeenKeyHashIsStable: the hashes of a saved seen set are read back
// by the next process, maybe of the next version, so SeenKey.Hash (SipHash
// with one round per word and three at the end) must never change. The
// value is pinned; the rounds are checked against the paper just above.
func TestSeenKeyHashIsStable(t *testing.T) {
	k := SeenKey{0x0706050403020100, 0x0f0e0d0c0b0a0908}
	if got := k.Hash("http://example.com/"); got != 0xbd658b1e45ebe13b {
		t.Errorf("Hash = %#x, want 0xbd658b1e45ebe13b", got)
	}
	if s := k.String(); s != "000102030405060708090a0b0c0d0e0f" {
		t.Errorf("String() = %q", s)
	}
}

// A key written out and read back hashes alike: that is what lets a
// crawl's seen set be saved.
func TestSeenKeyRoundTrip(t *testing.T) {
	k := NewSeenKey()
	back, err := ParseSeenKey(k.String())
	if err != nil || back != k {
		t.Fatalf("ParseSeenKey(%q) = %v, %v; want %v", k.String(), back, err, k)
	}
	if a, b := NewSeen(k, nil), NewSeen(back, nil); a.Hash("http://a.test/") != b.Hash("http://a.test/") {
		t.Fatal("the same key hashes differently")
	}
	if NewSeenKey().Hash("http://a.test/") == k.Hash("http://a.test/") {
		t.Fatal("two random keys hash a URL alike")
	}
	// A key is exactly 32 hex digits: a longer one (a torn or doubled
	// write) is refused, not read with its tail ignored.
	for _, bad := range []string{"", "xyz", k.String()[:30], k.String() + "00", k.String() + k.String()} {
		if _, err := ParseSeenKey(bad); err == nil {
			t.Errorf("ParseSeenKey(%q) took it", bad)
		}
	}
}

// A set standing on a frozen one counts the frozen one's URLs as seen,
// and adds only the others; the frozen one is not changed.
func TestSeenStandsOnAFrozenSet(t *testing.T) {
	k := NewSeenKey()
	frozen := NewSeen(k, nil)
	frozen.Reserve(3)
	frozen.Add("http://a.test/1")
	frozen.AddHash(k.Hash("http://a.test/2"))
	s := NewSeen(k, &frozen)
	if !s.Has("http://a.test/1") || !s.HasHash(k.Hash("http://a.test/2")) {
		t.Fatal("the frozen set's URLs are not seen")
	}
	if s.Add("http://a.test/2") || !s.Add("http://a.test/3") || s.Add("http://a.test/3") {
		t.Fatal("Add on a set standing on a frozen one")
	}
	if s.Len() != 1 || frozen.Len() != 2 || frozen.Has("http://a.test/3") {
		t.Fatalf("Len %d and frozen Len %d, want 1 and 2", s.Len(), frozen.Len())
	}
}

// BenchmarkSeenHash is the cost of hashing a typical URL with the keyed
// hash, the part of every Add that the key costs.
func BenchmarkSeenHash(b *testing.B) {
	k := NewSeenKey()
	u := "https://docs.example.com/guide/reference/page-123.html?ref=home"
	var sum uint64
	for i := 0; i < b.N; i++ {
		sum += k.Hash(u)
	}
	runtime.KeepAlive(sum)
}

// AppendHashes gives the hashes of the set's own URLs, each once, and
// not those of the set it stands on: what a crawler moves to disk.
func TestSeenAppendHashes(t *testing.T) {
	key := NewSeenKey()
	under := NewSeen(key, nil)
	under.Add("http://a.test/under")
	s := NewSeen(key, &under)
	var want []uint64
	for i := range 3000 { // past a few growths of the table
		u := fmt.Sprintf("http://a.test/%d", i)
		s.Add(u)
		want = append(want, key.Hash(u))
	}
	got := s.AppendHashes([]uint64{7})
	slices.Sort(want)
	if got[0] != 7 || len(got) != 3001 {
		t.Fatalf("%d hashes after the one appended to, want 3000", len(got)-1)
	}
	got = got[1:]
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatal("AppendHashes does not give the set's hashes")
	}
	if s.Key() != key {
		t.Fatal("Key is not the key the set was made with")
	}
}

// TestSeenMemoryPerURL: the doc promises 10 to 15 bytes per URL, as the
// table goes from 4/5 full to 1.5 times larger. Past the first table, the
// bytes per URL must stay in that range and reach both ends.
func TestSeenMemoryPerURL(t *testing.T) {
	var s Seen
	lo, hi := 100.0, 0.0
	for i := range 20000 {
		s.Add(testURL(i))
		if s.n < seenMinSlots {
			continue
		}
		perURL := float64(8*len(s.slots)) / float64(s.n)
		lo, hi = min(lo, perURL), max(hi, perURL)
	}
	if lo < 10 || lo > 10.1 || hi > 15.1 || hi < 14.9 {
		t.Errorf("%.2f to %.2f bytes per URL, want 10 to 15", lo, hi)
	}
}

// TestSeenReserveCountsWhatIsIn: Reserve(n) makes room for n more besides
// the URLs already in, so adding those n grows the table no more.
func TestSeenReserveCountsWhatIsIn(t *testing.T) {
	// 701: room for 1401 URLs is not a whole number of slots at 4/5.
	for _, more := range []int{700, 701} {
		var s Seen
		for i := range 700 {
			s.Add(fmt.Sprintf("http://example.com/a/%d", i))
		}
		s.Reserve(more)
		slots := len(s.slots)
		for i := range more {
			s.Add(fmt.Sprintf("http://example.com/b/%d", i))
		}
		if s.Len() != 700+more || len(s.slots) != slots {
			t.Errorf("Reserve(%d): Len %d; the table grew from %d to %d slots after Reserve", more, s.Len(), slots, len(s.slots))
		}
	}
}
