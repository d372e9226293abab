package urlnorm

import (
	"hash/maphash"
	"math/bits"
)

// Seen is a set of URLs that stores only a 64-bit hash of each, in an
// open-addressing table: 10 to 15 bytes per URL, depending on how full the
// table is between two resizes (BenchmarkSeenMillion measures 12 at a
// million URLs), against well over 100 for a map[string]bool holding a
// typical URL string.
//
// The price is false positives: two different URLs may share a hash, and
// then the second is wrongly reported as seen and never crawled. With n
// URLs the chance that any pair collides is about n²/2⁶⁵: 2.7 × 10⁻⁸ for a
// million URLs, 2.7 × 10⁻⁶ for ten million. A crawler that loses one page
// in tens of millions of crawls can afford that; one that must be exact
// should keep the strings.
//
// The hash is hash/maphash with a random seed chosen per Seen. It is fast
// (it uses the CPU's AES instructions where it can) and, unlike a fixed
// hash such as FNV-1a, a hostile site cannot precompute URLs that collide
// with a page it wants us to skip. The cost is that the hashes mean nothing
// outside this Seen, so a Seen cannot be saved and reloaded.
//
// Callers add URLs in normalized form (the output of [Resolve] or
// [Normalize]); Seen compares the strings exactly as given.
//
// The zero value is an empty set, ready to use. A Seen is not safe for
// concurrent use; the crawler owns it from its loop goroutine.
type Seen struct {
	seed  maphash.Seed
	slots []uint64 // hash values; 0 marks an empty slot
	n     int      // number of occupied slots
}

const (
	seenMinSlots = 1 << 10
	// The table grows when it is more than 4/5 full. Linear probing stays
	// fast up to there: a hash is found in about 3 probes and a miss takes
	// about 13, which is two cache lines of uint64s.
	seenLoadNum, seenLoadDen = 4, 5
)

// Add adds url to the set and reports whether it was new.
func (s *Seen) Add(url string) (added bool) {
	if s.slots == nil {
		s.seed = maphash.MakeSeed()
		s.slots = make([]uint64, seenMinSlots)
	}
	h := s.hash(url)
	i, found := s.find(h)
	if found {
		return false
	}
	s.slots[i] = h
	s.n++
	if s.n*seenLoadDen > len(s.slots)*seenLoadNum {
		s.grow()
	}
	return true
}

// Has reports whether url is in the set.
func (s *Seen) Has(url string) bool {
	if s.slots == nil {
		return false
	}
	_, found := s.find(s.hash(url))
	return found
}

// Len returns the number of URLs in the set.
func (s *Seen) Len() int { return s.n }

func (s *Seen) hash(url string) uint64 {
	h := maphash.String(s.seed, url)
	if h == 0 {
		h = 1 // 0 marks an empty slot; this merges two of 2⁶⁴ values
	}
	return h
}

// find returns the slot holding h, or the empty slot where h belongs.
// It starts at a slot chosen from h and walks forward (linear probing);
// the table is never full, so the walk ends.
func (s *Seen) find(h uint64) (slot int, found bool) {
	i := home(h, len(s.slots))
	for {
		switch s.slots[i] {
		case h:
			return i, true
		case 0:
			return i, false
		}
		if i++; i == len(s.slots) {
			i = 0
		}
	}
}

// home maps h onto [0, n) by multiplying and keeping the high word
// (Lemire's "fastrange"). Unlike h % n it costs no division, and unlike
// h & (n-1) it does not force n to be a power of two, which lets the table
// grow by 1.5× instead of 2× and waste less memory.
func home(h uint64, n int) int {
	hi, _ := bits.Mul64(h, uint64(n))
	return int(hi)
}

// grow moves every hash into a table 1.5 times larger. The stored hashes
// are all we need: the URLs are never hashed again.
func (s *Seen) grow() {
	old := s.slots
	s.slots = make([]uint64, len(old)+len(old)/2)
	for _, h := range old {
		if h != 0 {
			i, _ := s.find(h)
			s.slots[i] = h
		}
	}
}
