package urlnorm

import (
	"encoding/hex"
	"errors"
	"math/bits"
	"math/rand/v2"
)

// A SeenKey is the secret a Seen hashes URLs with. A hash that anyone can
// compute is a hash a hostile site can attack: it can make up URLs that
// collide with a page it wants the crawler to skip, or that pile up in
// one place of the table. Keyed by a secret, the hash is unpredictable to
// whoever does not hold the key.
//
// A crawl that survives a stop keeps its key in its state directory, so
// that the hashes it wrote to disk (the seen set of a snapshot, package
// crawler/journal) mean the same to the next process. That is why the
// hash is SipHash, which takes its key as bytes, and not hash/maphash,
// whose seeds cannot be saved.
type SeenKey [2]uint64

// NewSeenKey returns a random key.
func NewSeenKey() SeenKey { return SeenKey{rand.Uint64(), rand.Uint64()} }

// String is the key in hex, as a state directory keeps it.
func (k SeenKey) String() string {
	var b [16]byte
	for i := range 8 {
		b[i], b[8+i] = byte(k[0]>>(8*i)), byte(k[1]>>(8*i))
	}
	return hex.EncodeToString(b[:])
}

// ParseSeenKey reads a key written by String.
func ParseSeenKey(s string) (SeenKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 16 {
		return SeenKey{}, errors.New("urlnorm: a seen key is 32 hex digits")
	}
	var k SeenKey
	for i := range 8 {
		k[0] |= uint64(b[i]) << (8 * i)
		k[1] |= uint64(b[8+i]) << (8 * i)
	}
	return k, nil
}

// Hash is url's hash under k: never 0, which a Seen keeps for an empty
// slot (0 is read as 1, merging two of 2⁶⁴ values).
func (k SeenKey) Hash(url string) uint64 {
	h := sipHash(k[0], k[1], url, 1, 3)
	if h == 0 {
		h = 1
	}
	return h
}

// sipHash is SipHash-c-d (Aumasson and Bernstein): a keyed hash made for
// hash tables, fast on short strings and hard to make collide without the
// key. The message is read in 8-byte little-endian words, each mixed in
// with c rounds; the last word carries the remaining bytes and the
// length; d rounds finish. Seen uses SipHash-1-3, as Rust's HashMap does;
// the paper's test vectors are for SipHash-2-4.
func sipHash(k0, k1 uint64, s string, c, d int) uint64 {
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	n := len(s)
	for ; len(s) >= 8; s = s[8:] {
		m := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		v3 ^= m
		for range c {
			v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
		}
		v0 ^= m
	}
	last := uint64(n) << 56
	for i := len(s) - 1; i >= 0; i-- {
		last |= uint64(s[i]) << (8 * i)
	}
	v3 ^= last
	for range c {
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	}
	v0 ^= last
	v2 ^= 0xff
	for range d {
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	}
	return v0 ^ v1 ^ v2 ^ v3
}

// sipRound mixes the four words of SipHash's state: additions, rotations
// and exclusive-ors, nothing else.
func sipRound(v0, v1, v2, v3 uint64) (uint64, uint64, uint64, uint64) {
	v0 += v1
	v1 = bits.RotateLeft64(v1, 13)
	v1 ^= v0
	v0 = bits.RotateLeft64(v0, 32)
	v2 += v3
	v3 = bits.RotateLeft64(v3, 16)
	v3 ^= v2
	v0 += v3
	v3 = bits.RotateLeft64(v3, 21)
	v3 ^= v0
	v2 += v1
	v1 = bits.RotateLeft64(v1, 17)
	v1 ^= v2
	v2 = bits.RotateLeft64(v2, 32)
	return v0, v1, v2, v3
}
