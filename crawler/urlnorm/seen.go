package urlnorm

import "math/bits"

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
// The hash is keyed by a secret (SeenKey), random unless the Seen is made
// with one: a hostile site cannot precompute URLs that collide with a page
// it wants us to skip. A crawl that is saved to disk keeps its key with
// it, so that the hashes it saved can be read back (NewSeen).
//
// A Seen may stand on another, frozen one (NewSeen's under): the URLs a
// stopped crawl had seen, read back from disk. Those count as seen too.
// The frozen set is only read, so several loops may stand on one.
//
// Callers add URLs in normalized form (the output of [Resolve] or
// [Normalize]); Seen compares the strings exactly as given.
//
// The zero value is an empty set, ready to use. A Seen is not safe for
// concurrent use; the crawler owns it from its loop goroutine.
type Seen struct {
	key   SeenKey
	keyed bool     // key is set
	under *Seen    // a frozen set whose URLs count as seen; nil: none
	slots []uint64 // hash values; 0 marks an empty slot
	n     int      // number of occupied slots
}

// NewSeen returns an empty set hashing with key, which counts the URLs of
// under, if not nil, as seen. under must not change from then on.
func NewSeen(key SeenKey, under *Seen) Seen { return Seen{key: key, keyed: true, under: under} }

const (
	seenMinSlots = 1 << 10
	// The table grows when it is more than 4/5 full. Linear probing stays
	// fast up to there: a hash is found in about 3 probes and a miss takes
	// about 13, which is two cache lines of uint64s.
	seenLoadNum, seenLoadDen = 4, 5
)

// Add adds url to the set and reports whether it was new.
func (s *Seen) Add(url string) (added bool) { return s.AddHash(s.Hash(url)) }

// AddHash adds the URL whose hash (Hash) is h, and reports whether it
// was new.
func (s *Seen) AddHash(h uint64) (added bool) {
	if s.under != nil && s.under.HasHash(h) {
		return false
	}
	if s.slots == nil {
		s.slots = make([]uint64, seenMinSlots)
	}
	i, found := s.find(h)
	if found {
		return false
	}
	s.slots[i] = h
	s.n++
	if s.n*seenLoadDen > len(s.slots)*seenLoadNum {
		s.grow(len(s.slots) + len(s.slots)/2)
	}
	return true
}

// Has reports whether url is in the set.
func (s *Seen) Has(url string) bool { return s.HasHash(s.Hash(url)) }

// HasHash reports whether the URL whose hash is h is in the set.
func (s *Seen) HasHash(h uint64) bool {
	if s.under != nil && s.under.HasHash(h) {
		return true
	}
	if s.slots == nil {
		return false
	}
	_, found := s.find(h)
	return found
}

// Len returns the number of URLs in the set, not counting those of the
// set it stands on.
func (s *Seen) Len() int { return s.n }

// AppendHashes appends the hashes of the set's URLs to dst, in no order,
// not counting those of the set it stands on: what a crawler moves to
// disk when the set outgrows the memory it may have.
func (s *Seen) AppendHashes(dst []uint64) []uint64 {
	for _, h := range s.slots {
		if h != 0 {
			dst = append(dst, h)
		}
	}
	return dst
}

// Key is the key the set hashes with (Hash), drawn at random on first use
// if it was not made with one.
func (s *Seen) Key() SeenKey {
	if !s.keyed {
		s.key, s.keyed = NewSeenKey(), true
	}
	return s.key
}

// Reserve makes room for n more URLs at once: a set about to be filled
// from a file grows once, not a dozen times.
func (s *Seen) Reserve(n int) {
	want := (s.n + n) * seenLoadDen / seenLoadNum
	if want > len(s.slots) {
		s.grow(max(want+1, seenMinSlots))
	}
}

// Hash is url's hash in this set: SeenKey.Hash with its key, drawn at
// random on first use if the set was not made with one.
func (s *Seen) Hash(url string) uint64 { return s.Key().Hash(url) }

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

// grow moves every hash into a table of size slots, 1.5 times larger
// when Add grows it. The stored hashes are all we need: the URLs are
// never hashed again.
func (s *Seen) grow(slots int) {
	old := s.slots
	s.slots = make([]uint64, slots)
	for _, h := range old {
		if h != 0 {
			i, _ := s.find(h)
			s.slots[i] = h
		}
	}
}
