package future_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"loopkit/future"
)

// queue is the smallest Scheduler: callbacks wait in a slice until run.
type queue struct{ fns []func() }

func (q *queue) CallSoon(fn func()) { q.fns = append(q.fns, fn) }

func (q *queue) run() int {
	n := 0
	for len(q.fns) > 0 {
		fn := q.fns[0]
		q.fns = q.fns[1:]
		fn()
		n++
	}
	return n
}

func TestCallbacksAreScheduledNeverRunInline(t *testing.T) {
	q := &queue{}
	f := future.New[int](q)
	var got []string
	f.AddDoneCallback(func(f *future.Future[int]) {
		v, _ := f.Result()
		got = append(got, fmt.Sprint("first ", v))
	})
	f.SetResult(7)
	if len(got) != 0 {
		t.Fatal("a callback ran inside SetResult")
	}
	// Added after completion: still scheduled (the 500-lines footnote bug).
	f.AddDoneCallback(func(*future.Future[int]) { got = append(got, "late") })
	if len(got) != 0 {
		t.Fatal("a callback ran inside AddDoneCallback on a done future")
	}
	if n := q.run(); n != 2 {
		t.Fatalf("%d callbacks ran, want 2", n)
	}
	if strings.Join(got, ",") != "first 7,late" {
		t.Fatalf("callbacks ran as %v", got)
	}
}

func TestResultStates(t *testing.T) {
	q := &queue{}
	f := future.New[string](q)
	if _, err := f.Result(); !errors.Is(err, future.ErrNotDone) || f.Done() || f.Cancelled() {
		t.Fatalf("pending: %v (cancelled %v)", err, f.Cancelled())
	}
	boom := errors.New("boom")
	f.SetError(boom)
	if _, err := f.Result(); !errors.Is(err, boom) || !f.Done() || f.Cancelled() {
		t.Fatalf("failed: %v", err)
	}
	c := future.New[string](q)
	if !c.Cancel() || c.Cancel() {
		t.Fatal("Cancel should succeed once, then report false")
	}
	if _, err := c.Result(); !errors.Is(err, future.ErrCancelled) || !c.Cancelled() || !c.Done() {
		t.Fatalf("cancelled: %v (done %v)", err, c.Done())
	}
	if f.Cancel() {
		t.Fatal("cancelled a future that had already failed")
	}
	// Err says the same as Result, alone.
	ok := future.New[string](q)
	if err := ok.Err(); !errors.Is(err, future.ErrNotDone) {
		t.Fatalf("Err of a pending future: %v, want ErrNotDone", err)
	}
	ok.SetResult("v")
	if ok.Err() != nil || ok.Cancelled() || f.Err() != boom || !errors.Is(c.Err(), future.ErrCancelled) {
		t.Fatalf("Err: succeeded %v, failed %v, cancelled %v; want nil, boom, ErrCancelled", ok.Err(), f.Err(), c.Err())
	}
}

func TestCompletingTwiceIsAProgrammingError(t *testing.T) {
	for name, second := range map[string]func(*future.Future[int]){
		"SetResult": func(f *future.Future[int]) { f.SetResult(2) },
		"SetError":  func(f *future.Future[int]) { f.SetError(errors.New("late")) },
	} {
		t.Run(name, func(t *testing.T) {
			f := future.New[int](&queue{})
			f.SetResult(1)
			defer func() {
				p := recover()
				if p == nil || !strings.Contains(fmt.Sprint(p), "completed twice") {
					t.Fatalf("second completion: recovered %v", p)
				}
				if v, _ := f.Result(); v != 1 {
					t.Fatalf("the first result was overwritten: %d", v)
				}
			}()
			second(f)
		})
	}
}

// Done callbacks run in the order they were added, however many there
// are (the first is kept apart from the rest), and those added after the
// future is done come after those added before.
func TestDoneCallbacksRunInTheOrderAdded(t *testing.T) {
	q := &queue{}
	f := future.New[int](q)
	var got []int
	for i := range 4 {
		f.OnDone(func() { got = append(got, i) })
	}
	f.SetResult(1)
	f.OnDone(func() { got = append(got, 4) })
	q.run()
	if fmt.Sprint(got) != "[0 1 2 3 4]" {
		t.Fatalf("callbacks ran in the order %v, want [0 1 2 3 4]", got)
	}
}

// A callback added to a done future while its earlier callbacks are still
// running (here, by one of them) runs after all of them, and takes the
// place of none: whether one, two or more came before it.
func TestACallbackAddedWhileOthersRunComesAfterThem(t *testing.T) {
	for before := 1; before <= 4; before++ {
		q := &queue{}
		f := future.New[int](q)
		var got []string
		for i := range before {
			f.OnDone(func() {
				got = append(got, fmt.Sprint(i))
				if i == 0 {
					f.OnDone(func() { got = append(got, "late") })
				}
			})
		}
		f.SetResult(1)
		q.run()
		want := []string{}
		for i := range before {
			want = append(want, fmt.Sprint(i))
		}
		if want = append(want, "late"); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%d callbacks, the first adding one: they ran as %v, want %v", before, got, want)
		}
	}
}

// Init of a future that served before (a record off a free list) makes
// it pending again: nothing of its old outcome or callbacks is left.
func TestInitForgetsTheOldOutcome(t *testing.T) {
	q := &queue{}
	var rec struct{ f future.Future[int] }
	rec.f.Init(q)
	var got []string
	rec.f.OnDone(func() { got = append(got, "old") })
	rec.f.SetResult(1)
	q.run()
	rec.f.Init(q)
	if _, err := rec.f.Result(); rec.f.Done() || !errors.Is(err, future.ErrNotDone) {
		t.Fatalf("after Init: done %v, %v; want pending", rec.f.Done(), err)
	}
	rec.f.OnDone(func() { got = append(got, "new") })
	rec.f.SetResult(2)
	q.run()
	if v, _ := rec.f.Result(); v != 2 || strings.Join(got, ",") != "old,new" {
		t.Fatalf("second use: result %d, callbacks %v; want 2, [old new]", v, got)
	}
}

// SetError(nil) is a programming error, and says so: it would complete the
// future with no error, a success its producer never meant.
func TestSetErrorNilPanics(t *testing.T) {
	f := future.New[int](&queue{})
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "SetError(nil)") {
			t.Fatalf("SetError(nil): recovered %v, want a panic that says so", p)
		}
		if f.Done() {
			t.Fatal("SetError(nil) completed the future")
		}
	}()
	f.SetError(nil)
}

// Settled is false while a callback is still to run, however done the
// future is: a record handed to new work then would be seen by it.
func TestSettledWaitsForEveryCallback(t *testing.T) {
	q := &queue{}
	f := future.New[int](q)
	if f.Settled() {
		t.Fatal("a pending future is settled")
	}
	f.OnDone(func() {})
	f.OnDone(func() {})
	f.SetResult(1)
	if f.Settled() {
		t.Fatal("settled with two callbacks still to run")
	}
	q.fns[0]()
	if f.Settled() {
		t.Fatal("settled with one callback still to run")
	}
	q.fns[1]()
	if !f.Settled() {
		t.Fatal("not settled once every callback ran")
	}
	f.OnDone(func() {}) // added late: scheduled, so not settled again until it runs
	if f.Settled() {
		t.Fatal("settled with a late callback still to run")
	}
	q.fns[2]()
	if !f.Settled() {
		t.Fatal("not settled once the late callback ran")
	}
	g := future.New[int](q)
	g.Cancel()
	if !g.Settled() {
		t.Fatal("a done future with no callback is not settled")
	}
}

// A future with more callbacks than its two fields hold settles too, once
// the last has run: a record whose future had three waiters can still be
// handed to new work.
func TestSettledAfterThreeOrMoreCallbacksRan(t *testing.T) {
	for _, n := range []int{3, 5} {
		q := &queue{}
		f := future.New[int](q)
		for range n {
			f.OnDone(func() {})
		}
		f.SetResult(1)
		for i := range n {
			if f.Settled() {
				t.Fatalf("%d callbacks: settled with %d still to run", n, n-i)
			}
			q.fns[i]()
		}
		if !f.Settled() {
			t.Fatalf("%d callbacks: not settled once every one ran", n)
		}
	}
}

// Cancelled means Cancel ended the future, not that its error is
// ErrCancelled: a producer that fails a future with SetError(ErrCancelled)
// did not cancel it, and Cancelled says so (Result still returns the error).
func TestAFutureFailedWithErrCancelledIsNotCancelled(t *testing.T) {
	f := future.New[int](&queue{})
	f.SetError(future.ErrCancelled)
	if f.Cancelled() || !f.Done() || f.Err() != future.ErrCancelled {
		t.Fatalf("cancelled %v, done %v, error %v; want false, true, ErrCancelled", f.Cancelled(), f.Done(), f.Err())
	}
}

// A callback added to a future that was cancelled, not finished, is
// scheduled all the same: a task awaiting a cancelled future must still be
// resumed to hear of it.
func TestACallbackAddedToACancelledFutureStillRuns(t *testing.T) {
	q := &queue{}
	f := future.New[int](q)
	f.Cancel()
	ran := 0
	f.OnDone(func() { ran++ })
	f.AddDoneCallback(func(*future.Future[int]) { ran++ })
	if n := q.run(); n != 2 || ran != 2 {
		t.Fatalf("%d scheduled, %d ran; want both callbacks of a cancelled future run", n, ran)
	}
}

// A callback that panics is over all the same: once it was the last, the
// future is settled, and a callback added afterwards runs as the first
// one of a fresh list would.
func TestAFutureSettlesWhenItsLastCallbackPanics(t *testing.T) {
	q := &queue{}
	f := future.New[int](q)
	f.OnDone(func() { panic("callback broke") })
	f.SetResult(1)
	func() {
		defer func() {
			if p := recover(); p != "callback broke" {
				t.Fatalf("recovered %v, want the callback's panic", p)
			}
		}()
		fn := q.fns[0]
		q.fns = q.fns[1:]
		fn()
	}()
	if !f.Settled() {
		t.Fatal("not settled once its only callback ran (and panicked)")
	}
	ran := 0
	f.OnDone(func() { ran++ })
	if n := q.run(); n != 1 || ran != 1 || !f.Settled() {
		t.Fatalf("a callback added after the panic: %d scheduled, ran %d, settled %v; want 1, 1, true", n, ran, f.Settled())
	}
}
