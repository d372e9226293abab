package journal_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"loopkit/crawler/journal"
)

// The seen set's disk work, per hash of its file: what a pass (Absent: a
// batch of links checked against every hash on disk) and a merge (Add:
// memory's hashes written into the file, which is written anew) cost.
// The file is in the page cache after its first pass, so this is the CPU
// side of the work, and a floor; a file bigger than memory reads at the
// disk's speed. docs/growth.md turns these into what a crawl of a
// hundred million or a billion pages would take.
//
//	go test ./crawler/journal -run '^$' -bench SeenDisk -benchtime 10x

// seenDiskOf makes a SeenDisk whose own file holds n random hashes, and
// returns a sorted batch of m random hashes to ask about.
func seenDiskOf(b *testing.B, n, m int) (*journal.SeenDisk, []uint64) {
	b.Helper()
	d, err := journal.OpenSeenDisk(b.TempDir(), "seen")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	rng := rand.New(rand.NewPCG(3, 4))
	hashes := make([]uint64, n)
	for i := range hashes {
		hashes[i] = rng.Uint64()
	}
	slices.Sort(hashes)
	if err := d.Add(slices.Compact(hashes)); err != nil {
		b.Fatal(err)
	}
	batch := make([]uint64, m)
	for i := range batch {
		batch[i] = rng.Uint64()
	}
	slices.Sort(batch)
	return d, slices.Compact(batch)
}

// BenchmarkSeenDiskPass is one pass: a batch of 32,768 links (the
// crawler's full batch) checked against files of 1 and 10 million hashes.
// MB/s counts the file read.
func BenchmarkSeenDiskPass(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			d, batch := seenDiskOf(b, n, 32<<10)
			ask := make([]uint64, len(batch))
			b.SetBytes(int64(8 * n))
			b.ResetTimer()
			for range b.N {
				copy(ask, batch)
				if _, err := d.Absent(ask); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSeenDiskMerge is one merge: 500,000 new hashes (a loop's
// share of the default Config.SeenMemory over two loops) written into a
// file of 1 and 10 million, the whole file written anew. MB/s counts the
// file written.
func BenchmarkSeenDiskMerge(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(5, 6))
			sorted := func(n int) []uint64 {
				hs := make([]uint64, n)
				for i := range hs {
					hs[i] = rng.Uint64()
				}
				slices.Sort(hs)
				return slices.Compact(hs) // and two random 64-bit sets share none, but by a 1 in 2^40 chance
			}
			base, add := sorted(n), sorted(500_000)
			dir := b.TempDir()
			b.SetBytes(int64(8 * (len(base) + len(add))))
			b.ResetTimer()
			for i := range b.N {
				// A new SeenDisk each round, its file holding base, so
				// that each merge writes the same hashes.
				b.StopTimer()
				d, err := journal.OpenSeenDisk(dir, "own"+strconv.Itoa(i))
				if err == nil {
					err = d.Add(base)
				}
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := d.Add(add); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				d.Close()
				b.StartTimer()
			}
		})
	}
}
