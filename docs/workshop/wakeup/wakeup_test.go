//go:build workshop

package wakeup_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"loopkit/docs/workshop/internal/wstest"
	"loopkit/docs/workshop/wakeup"
)

// bell is a fake Bell for tests on one goroutine: it counts rings and
// knows whether a ring is waiting to be silenced. onSilence, if set, runs
// inside the next Silence, before the bell is emptied: it plays another
// goroutine whose post lands at that very moment. onRing, if set, runs
// inside the next Ring, once it has rung: it plays the loop, woken at
// once, taking its posts before the post that rang has returned.
type bell struct {
	rings     int
	rung      bool
	silenced  bool
	failNext  error
	onSilence func()
	onRing    func()
}

func (b *bell) Ring() error {
	b.rings++
	if err := b.failNext; err != nil {
		b.failNext = nil
		return err
	}
	b.rung = true
	if fn := b.onRing; fn != nil {
		b.onRing = nil
		fn()
	}
	return nil
}

func (b *bell) Silence() error {
	b.silenced = true
	if fn := b.onSilence; fn != nil {
		b.onSilence = nil
		fn()
	}
	b.rung = false
	return nil
}

// record returns a callback that appends name to *log when the loop runs it.
func record(log *[]string, name string) func() {
	return func() { *log = append(*log, name) }
}

func runAll(fns []func()) {
	for _, fn := range fns {
		fn()
	}
}

func TestAPostRingsTheBell(t *testing.T) {
	b := &bell{}
	in := wakeup.New(b)
	if err := in.Post(func() {}); err != nil {
		t.Fatal(err)
	}
	if b.rings != 1 || !b.rung {
		t.Fatalf("after one post: %d ring(s), rung %v; want 1, true — the loop may be asleep", b.rings, b.rung)
	}
}

func TestABurstOfPostsRingsOnce(t *testing.T) {
	b := &bell{}
	in := wakeup.New(b)
	var log []string
	var want []string
	for i := range 1000 {
		name := string(rune('a' + i%26))
		want = append(want, name)
		in.Post(record(&log, name))
	}
	if b.rings != 1 {
		t.Fatalf("1000 posts rang the bell %d times; want once: one ring is enough to wake the loop", b.rings)
	}
	fns, err := in.Take()
	if err != nil {
		t.Fatal(err)
	}
	runAll(fns)
	if !slices.Equal(log, want) {
		t.Fatalf("Take returned %d callbacks, not the 1000 posted in order", len(fns))
	}
}

func TestTakeSilencesAndRearms(t *testing.T) {
	b := &bell{}
	in := wakeup.New(b)
	in.Post(func() {})
	if _, err := in.Take(); err != nil {
		t.Fatal(err)
	}
	if !b.silenced || b.rung {
		t.Fatalf("after Take: silenced %v, still rung %v; want true, false", b.silenced, b.rung)
	}
	in.Post(func() {})
	if b.rings != 2 || !b.rung {
		t.Fatalf("the first post after a Take: %d rings in all, rung %v; want 2, true", b.rings, b.rung)
	}
}

// The race every hand-made thread-safe queue must get right: a post lands
// while the loop is in Take. Whatever the order inside Take, no post may
// be left in the inbox with the bell silent — the loop would sleep
// through it, until some unrelated event came along.
func TestAPostDuringTakeIsNeverStranded(t *testing.T) {
	b := &bell{}
	in := wakeup.New(b)
	var log []string
	in.Post(record(&log, "A"))
	b.onSilence = func() { in.Post(record(&log, "X")) }
	first, err := in.Take()
	if err != nil {
		t.Fatal(err)
	}
	if !b.silenced {
		t.Fatal("Take did not silence the bell: the loop would wake again at once, for nothing, for ever")
	}
	runAll(first)
	if !slices.Contains(log, "X") && !b.rung {
		t.Fatal("X, posted during Take, was not taken, and the bell is silent: X is stranded")
	}
	in.Post(record(&log, "Y"))
	if !b.rung {
		t.Fatal("a post after Take left the bell silent: the waker thinks a ring is still pending, and will never ring again")
	}
	rest, err := in.Take()
	if err != nil {
		t.Fatal(err)
	}
	runAll(rest)
	if !slices.Equal(log, []string{"A", "X", "Y"}) {
		t.Fatalf("the loop ran %v; want [A X Y]", log)
	}
}

// The same race, a moment later: the post lands just after Take has taken
// the posts, before Take returns. It is not among the callbacks taken, so
// it must have rung the bell.
func TestAPostJustAfterTheTakeIsNeverStranded(t *testing.T) {
	b := &bell{}
	in := wakeup.New(b)
	var log []string
	in.Post(record(&log, "A"))
	landed := false
	wakeup.AfterTakeAll(in, func() {
		wakeup.AfterTakeAll(in, nil)
		landed = true
		in.Post(record(&log, "X"))
	})
	first, err := in.Take()
	if err != nil {
		t.Fatal(err)
	}
	if !landed {
		t.Fatal("Take did not call in.takeAll(), so this test could not land its post there")
	}
	runAll(first)
	if !slices.Contains(log, "X") && !b.rung {
		t.Fatal("X, posted just after Take took the posts, was not taken, and the bell is silent: X is stranded")
	}
	rest, err := in.Take()
	if err != nil {
		t.Fatal(err)
	}
	runAll(rest)
	if !slices.Equal(log, []string{"A", "X"}) {
		t.Fatalf("the loop ran %v; want [A X]", log)
	}
}

// Two goroutines post at once, the second landing just after the first
// has read pending and before it writes it. Only one of them turned
// pending from false to true, so only one rings: reading the flag and
// then setting it, in two steps, lets both see false and both ring. A
// CompareAndSwap (or a Swap) reads and sets in one step that no post can
// land inside. The test plays the second post in the first one's gap, on
// one goroutine, with a hook the flag runs after each read.
func TestTwoPostsAtOnceRingOnce(t *testing.T) {
	b := &bell{}
	in := wakeup.New(b)
	var log []string
	landed := false
	wakeup.AfterPendingRead(in, func() {
		landed = true
		if err := in.Post(record(&log, "B")); err != nil {
			t.Error(err)
		}
	})
	if err := in.Post(record(&log, "A")); err != nil {
		t.Fatal(err)
	}
	if !landed {
		t.Fatal("Post never read in.pending, so this test could not land a post between its read and its write")
	}
	if b.rings != 1 {
		t.Fatalf("two posts at once rang the bell %d times; want once: each saw no ring on its way, and both rang", b.rings)
	}
	fns, err := in.Take()
	if err != nil {
		t.Fatal(err)
	}
	runAll(fns)
	if len(log) != 2 {
		t.Fatalf("the loop ran %v; want both posts", log)
	}
}

// The loop may wake the moment the bell rings, and take its posts before
// the post that rang has returned. The callback must be in the inbox by
// then: queued after the ring, it would be left there with the bell
// silent and the waker re-armed — stranded.
func TestALoopThatWakesAtTheRingFindsThePost(t *testing.T) {
	b := &bell{}
	in := wakeup.New(b)
	var log []string
	var taken []func()
	b.onRing = func() {
		fns, err := in.Take()
		if err != nil {
			t.Error(err)
		}
		taken = fns
	}
	if err := in.Post(record(&log, "A")); err != nil {
		t.Fatal(err)
	}
	runAll(taken)
	if !slices.Contains(log, "A") && !b.rung {
		t.Fatal("A was not taken by the loop that woke at its ring, and the bell is silent: A is stranded")
	}
}

func TestARingThatFailsIsReportedAndRetried(t *testing.T) {
	boom := errors.New("write eventfd: bad file descriptor")
	b := &bell{failNext: boom}
	in := wakeup.New(b)
	if err := in.Post(func() {}); !errors.Is(err, boom) {
		t.Fatalf("Post returned %v when the bell failed to ring; want that error: a lost wake-up must not go unnoticed", err)
	}
	if err := in.Post(func() {}); err != nil || b.rings != 2 || !b.rung {
		t.Fatalf("the next post: err %v, %d rings in all, rung %v; want nil, 2, true — nothing rang, so it must try again",
			err, b.rings, b.rung)
	}
}

// chanBell is a real Bell for real goroutines: a channel of one, whose
// token is the ring. The loop below waits by receiving it, which empties
// it as the read of an eventfd would, so Silence has nothing left to do.
type chanBell chan struct{}

func (c chanBell) Ring() error {
	select {
	case c <- struct{}{}:
	default: // a ring is already waiting
	}
	return nil
}

func (c chanBell) Silence() error {
	select {
	case <-c:
	default:
	}
	return nil
}

// Four goroutines post 1000 callbacks each while a "loop" goroutine
// sleeps on the bell, takes and runs them. Not one may be stranded. Run
// it with -race: the counter is the loop's, and only the loop touches it.
func TestManyGoroutinesLoseNothing(t *testing.T) {
	b := make(chanBell, 1)
	in := wakeup.New(b)
	if in.Post(func() {}); len(b) != 1 {
		t.Fatal("a post did not ring the bell")
	}
	const posters, each = 4, 1000
	ran := 0 // counted by the loop goroutine only
	loopDone := make(chan struct{})
	go func() {
		defer close(loopDone)
		guard := time.After(wstest.HangGuard)
		for ran < posters*each {
			select {
			case <-b:
			case <-guard:
				t.Errorf("the loop slept through posts: %d of %d ran", ran, posters*each)
				return
			}
			fns, err := in.Take()
			if err != nil {
				t.Error(err)
				return
			}
			for _, fn := range fns {
				fn()
			}
		}
	}()
	var wg sync.WaitGroup
	for range posters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if err := in.Post(func() { ran++ }); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	<-loopDone
}
