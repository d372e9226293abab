package proc

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestUsageGrowsWithWorkAndMemory(t *testing.T) {
	before := Now()
	keep := make([][]byte, 0, 64)
	for range 64 {
		b := make([]byte, 256<<10)
		for i := range b {
			b[i] = 1 // touch it, or it is never resident
		}
		keep = append(keep, b)
	}
	deadline := time.Now().Add(20 * time.Millisecond)
	for time.Now().Before(deadline) {
	}
	after := Now()
	runtime.KeepAlive(keep)
	if after.CPU() <= before.CPU() {
		t.Errorf("CPU went from %v to %v after 20 ms of spinning", before.CPU(), after.CPU())
	}
	if after.PeakRSS < 16<<20 {
		t.Errorf("peak RSS %d bytes with 16 MiB resident", after.PeakRSS)
	}
}

func TestSamplerSeesTheGoroutinesOfTheWorkload(t *testing.T) {
	s := StartSampler(time.Millisecond)
	stop := make(chan struct{})
	started := make(chan struct{}, 50)
	for range 50 {
		go func() {
			started <- struct{}{}
			<-stop
		}()
	}
	for range 50 {
		<-started
	}
	time.Sleep(5 * time.Millisecond)
	close(stop)
	p := s.Stop()
	if p.Goroutines < 51 { // the 50 and the test's own
		t.Errorf("peak of %d goroutines", p.Goroutines)
	}
	if p.Threads < 1 {
		t.Errorf("peak of %d threads", p.Threads)
	}
}

func TestRaiseFDLimitReachesTheHardLimit(t *testing.T) {
	l, err := RaiseFDLimit()
	if err != nil {
		t.Skipf("this system refuses: %v", err)
	}
	if l.Raised != l.Hard || l.Soft > l.Hard {
		t.Fatalf("got %v", l)
	}
}

func TestCPUOfThisProcessMatchesGetrusage(t *testing.T) {
	deadline := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(deadline) {
	}
	got, ok := CPUOf(os.Getpid())
	if !ok {
		t.Skip("no /proc here")
	}
	own := Now().CPU()
	if got <= 0 || got > own+20*time.Millisecond {
		t.Fatalf("CPUOf says %v, getrusage %v", got, own)
	}
}

func TestGoMemorySeesLiveObjectsAndStacks(t *testing.T) {
	before := ReadGoMemory()
	keep := make([][]byte, 0, 100)
	for range 100 {
		keep = append(keep, make([]byte, 10<<10))
	}
	stop := make(chan struct{})
	started := make(chan struct{})
	for range 100 {
		go func() {
			var pad [4 << 10]byte // grows the stack past its first 2 KiB... if it stays
			pad[0] = 1
			started <- struct{}{}
			<-stop
			runtime.KeepAlive(pad)
		}()
	}
	for range 100 {
		<-started
	}
	after := ReadGoMemory()
	close(stop)
	runtime.KeepAlive(keep)
	// Not exactly 1000 KiB: what the test framework had live before may be
	// garbage by the second reading (a busy -race run once saw 40 bytes fewer).
	if grew := after.HeapLive - before.HeapLive; grew < 900<<10 {
		t.Errorf("live heap grew by %d bytes with 1000 KiB kept", grew)
	}
	if grew := after.Stacks - before.Stacks; grew < 100*2<<10 {
		t.Errorf("stacks grew by %d bytes with 100 goroutines parked", grew)
	}
}

func TestMachineAndKernelReadingsWhereLinuxHasThem(t *testing.T) {
	if _, err := os.Stat("/proc/net/sockstat"); err != nil {
		t.Skip("no /proc here")
	}
	if busy, ok := MachineBusy(); !ok || busy <= 0 {
		t.Errorf("machine busy %v, %v", busy, ok)
	}
	if k, ok := ReadKernelSockets(); !ok || k.Sockets <= 0 {
		t.Errorf("kernel sockets %+v, %v", k, ok)
	}
	if CPUList() == "" {
		t.Error("no Cpus_allowed_list")
	}
	if rss, ok := RSS(); !ok || rss <= 0 {
		t.Errorf("RSS %d, %v", rss, ok)
	}
}

var sink []any

// ReadAllocs counts as testing does: each object once, a tiny one too.
// 50,000 8-byte objects (tiny: two fit in a runtime block) and 50,000
// 64-byte ones are 100,000. runtime/metrics counts a processor's
// allocations when its cache hands a span back, so a reading can lag by
// up to a span of each size class per processor (1.5 % here, seen in
// CI). A garbage collection makes every cache hand its spans in, so the
// test collects before each reading; the 1 % margin is for the runtime's
// own allocations. Checked by hand: counting /gc/heap/allocs:objects
// alone gives 75,000.
func TestReadAllocsCountsEveryObject(t *testing.T) {
	const n = 50_000
	sink = make([]any, 0, 2*n)
	ReadAllocs() // the runtime sets up its metrics on the first read
	runtime.GC()
	before := ReadAllocs()
	for range n {
		sink = append(sink, new([8]byte), new([64]byte))
	}
	runtime.GC()
	after := ReadAllocs()
	objects, bytes := after.Objects-before.Objects, after.Bytes-before.Bytes
	if objects < 2*n*99/100 || objects > 2*n*101/100 {
		t.Errorf("counted %d objects, want %d", objects, 2*n)
	}
	if bytes < n*(8+64)*99/100 {
		t.Errorf("counted %d bytes, want at least %d", bytes, n*(8+64))
	}
	sink = nil
}

// The harness reads a child's peak before it kills it: the same VmHWM
// the child would read of itself. Checked by hand: reading VmRSS instead
// fails it after the 32 MiB are freed.
func TestPeakRSSOfReadsAnotherProcesssHighWaterMark(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/<pid>/status is Linux's")
	}
	b := make([]byte, 32<<20)
	for i := range b {
		b[i] = 1
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
	debug.FreeOSMemory() // VmRSS falls; VmHWM does not
	got, ok := PeakRSSOf(os.Getpid())
	if own := Now().PeakRSS; !ok || got < 32<<20 || got > own {
		t.Errorf("PeakRSSOf(self) = %d, %v; this process's own reading %d", got, ok, own)
	}
	if _, ok := PeakRSSOf(1 << 30); ok {
		t.Error("a process that does not exist has a peak")
	}
}
