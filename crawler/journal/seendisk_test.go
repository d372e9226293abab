package journal_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"loopkit/crawler/journal"
	"loopkit/crawler/urlnorm"
)

// A SeenDisk answers exactly, batch after batch: Absent keeps a hash if
// and only if none of its files holds it — the snapshot's seen file and
// the run it stands on, and its own file, which Add grows — whether it is
// the smallest hash there is, the largest, or one of a batch's repeats of
// a hash added batches ago; and files of more than a read block are read
// to their end. Seen failing with the merge dropping a batch's hashes
// below a file's first (the 1 every batch asks about was not kept), with
// Add stopping after the old file's first block (its next file was cut
// short), and with Absent skipping the own file (hashes added a batch
// before were absent again).
func TestSeenDiskAnswersExactlyAcrossBatches(t *testing.T) {
	dir := t.TempDir()
	key := urlnorm.NewSeenKey()
	rng := rand.New(rand.NewPCG(1, 2))
	held := map[uint64]bool{}
	random := func(n int) []uint64 {
		var out []uint64
		for range n {
			h := rng.Uint64() | 1<<63 // none below 1<<63: the batches ask about 1 and 2 too
			held[h] = true
			out = append(out, h)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	base := append([]uint64{2}, random(200_000)...) // more than a 1 MiB block
	if err := journal.WriteSeenFile(filepath.Join(dir, "seen.7"), key, base); err != nil {
		t.Fatal(err)
	}
	held[2] = true
	run := append(random(1000), ^uint64(0))
	held[^uint64(0)] = true
	if err := journal.WriteSeenRun(filepath.Join(dir, "seen-since"), run); err != nil {
		t.Fatal(err)
	}
	d, err := journal.OpenSeenDisk(dir, "seen-0", filepath.Join(dir, "seen.7"), filepath.Join(dir, "seen-since"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var added []uint64 // what Add was given, in every batch so far
	for batch := range 6 {
		// a batch: new hashes, 1, the extremes the base holds, and some
		// of the base's, the run's and those added before
		ask := []uint64{1, 2, ^uint64(0)}
		for range 300 {
			ask = append(ask, rng.Uint64()|1<<63)
		}
		ask = append(ask, base[rng.IntN(len(base))], base[len(base)-1], run[rng.IntN(len(run))])
		if len(added) > 0 {
			ask = append(ask, added[rng.IntN(len(added))], added[0], added[len(added)-1])
		}
		slices.Sort(ask)
		ask = slices.Compact(ask)
		var want []uint64
		for _, h := range ask {
			if !held[h] {
				want = append(want, h)
			}
		}
		got, err := d.Absent(slices.Clone(ask))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("batch %d: Absent kept %d of %d hashes, want %d (first: %x, want %x)",
				batch, len(got), len(ask), len(want), got[:min(3, len(got))], want[:min(3, len(want))])
		}
		if err := d.Add(got); err != nil {
			t.Fatal(err)
		}
		for _, h := range got {
			held[h] = true
		}
		added = append(added, got...)
		slices.Sort(added)
		if batch == 2 { // a batch big enough for the own file to span blocks
			big := random(150_000)
			big = slices.DeleteFunc(big, func(h uint64) bool { _, ok := slices.BinarySearch(added, h); return ok })
			if err := d.Add(big); err != nil {
				t.Fatal(err)
			}
			added = append(added, big...)
			slices.Sort(added)
		}
	}
	if n := d.Len(); n != int64(len(base)+len(run)+len(added)) {
		t.Fatalf("Len %d, want %d", n, len(base)+len(run)+len(added))
	}
	d.Close()
	left, _ := filepath.Glob(filepath.Join(dir, "seen-0.*"))
	if len(left) != 0 {
		t.Fatalf("Close left its own files: %v", left)
	}
	if _, err := os.Stat(filepath.Join(dir, "seen.7")); err != nil {
		t.Fatalf("Close removed a file it stood on: %v", err)
	}
}

// A pass reads a run no further than the batch's largest hash: a batch
// of small hashes against a run of three blocks reads one block, and
// BytesRead says so. A bare run whose size is not whole words is refused.
func TestSeenDiskReadsNoFurtherThanTheBatch(t *testing.T) {
	dir := t.TempDir()
	run := make([]uint64, 400_000) // 3.2 MB: four reads of 1 MiB to its end
	for i := range run {
		run[i] = uint64(i+1) * 1000
	}
	path := filepath.Join(dir, "run")
	if err := journal.WriteSeenRun(path, run); err != nil {
		t.Fatal(err)
	}
	d, err := journal.OpenSeenDisk(dir, "own", path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	absent, err := d.Absent([]uint64{5, 1000, 1500})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(absent, []uint64{5, 1500}) {
		t.Fatalf("absent %v, want [5 1500]", absent)
	}
	if n := d.BytesRead(); n <= 0 || n > 1<<20 {
		t.Fatalf("read %d bytes, want one block of at most 1 MiB", n)
	}

	os.WriteFile(path+"-odd", make([]byte, 12), 0o644)
	if d, err := journal.OpenSeenDisk(dir, "own2", path+"-odd"); err == nil {
		d.Close()
		t.Fatal("a run of 12 bytes was taken")
	}
}
