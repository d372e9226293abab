//go:build workshop

package minifuture_test

import (
	"errors"
	"slices"
	"strconv"
	"testing"

	"loopkit/docs/workshop/minifuture"
)

// turns is a Scheduler whose turns the test runs by hand: CallSoon only
// queues, and run runs what was queued before it began, as the loop does.
type turns struct{ queue []func() }

func (s *turns) CallSoon(fn func()) { s.queue = append(s.queue, fn) }

func (s *turns) run() {
	batch := s.queue
	s.queue = nil
	for _, fn := range batch {
		fn()
	}
}

// log collects what callbacks saw, in the order they ran.
type log []string

func (l *log) cb(name string) func(*minifuture.Future[int]) {
	return func(f *minifuture.Future[int]) {
		v, err := f.Result()
		*l = append(*l, name+":"+describe(v, err))
	}
}

func describe(v int, err error) string {
	if err != nil {
		return err.Error()
	}
	return strconv.Itoa(v)
}

func TestCallbacksAreScheduledNotRunInline(t *testing.T) {
	s := &turns{}
	f := minifuture.New[int](s)
	var got log
	f.AddDoneCallback(got.cb("a"))
	f.SetResult(7)
	if len(got) > 0 {
		t.Fatalf("a callback ran inside SetResult (saw %v): it must be scheduled with CallSoon", got)
	}
	s.run()
	if want := (log{"a:7"}); !slices.Equal(got, want) {
		t.Fatalf("after one turn the callbacks saw %v; want %v", got, want)
	}
}

// The chapter's footnote: a coroutine that awaits a future already
// resolved is never resumed, because its callback is added too late.
func TestCallbackAddedToADoneFutureStillRuns(t *testing.T) {
	s := &turns{}
	f := minifuture.New[int](s)
	f.SetResult(4)
	s.run()
	var got log
	f.AddDoneCallback(got.cb("late"))
	if len(got) > 0 {
		t.Fatal("a callback added to a done future ran inside AddDoneCallback: schedule it")
	}
	s.run()
	if want := (log{"late:4"}); !slices.Equal(got, want) {
		t.Fatalf("the late callback saw %v; want %v", got, want)
	}
}

func TestCallbacksRunOnceEachInTheOrderAdded(t *testing.T) {
	s := &turns{}
	f := minifuture.New[int](s)
	var got log
	f.AddDoneCallback(got.cb("a"))
	f.AddDoneCallback(got.cb("b"))
	f.AddDoneCallback(got.cb("c"))
	f.SetResult(1)
	if len(got) > 0 {
		t.Fatalf("callbacks ran inside SetResult: %v", got)
	}
	s.run()
	f.AddDoneCallback(got.cb("d"))
	s.run()
	s.run()
	if want := (log{"a:1", "b:1", "c:1", "d:1"}); !slices.Equal(got, want) {
		t.Fatalf("callbacks saw %v; want %v: each once, in the order added", got, want)
	}
}

func TestSetErrorSchedulesCallbacksToo(t *testing.T) {
	s := &turns{}
	f := minifuture.New[int](s)
	boom := errors.New("boom")
	var got log
	f.AddDoneCallback(got.cb("a"))
	f.SetError(boom)
	if len(got) > 0 {
		t.Fatalf("a callback ran inside SetError: %v", got)
	}
	s.run()
	if _, err := f.Result(); err != boom || !slices.Equal(got, log{"a:boom"}) {
		t.Fatalf("after SetError(boom): Result error %v, callbacks saw %v; want boom, [a:boom]", err, got)
	}
}

func TestCompletingTwicePanics(t *testing.T) {
	for _, second := range []struct {
		name     string
		complete func(f *minifuture.Future[int])
	}{
		{"SetResult", func(f *minifuture.Future[int]) { f.SetResult(2) }},
		{"SetError", func(f *minifuture.Future[int]) { f.SetError(errors.New("late")) }},
	} {
		name, complete := second.name, second.complete
		f := minifuture.New[int](&turns{})
		f.SetResult(1)
		if !panics(func() { complete(f) }) {
			t.Errorf("%s on a future already done did not panic: two parties think they own it", name)
		}
		if v, err := f.Result(); v != 1 || err != nil {
			t.Errorf("after the second completion (%s) the result is %v, %v; want the first, 1, nil", name, v, err)
		}
	}
}

func TestCancel(t *testing.T) {
	s := &turns{}
	f := minifuture.New[int](s)
	var got log
	f.AddDoneCallback(got.cb("a"))
	if !f.Cancel() {
		t.Fatal("Cancel of a pending future returned false")
	}
	if !f.Done() || !f.Cancelled() {
		t.Fatalf("after Cancel: Done %v, Cancelled %v; want both true", f.Done(), f.Cancelled())
	}
	if _, err := f.Result(); !errors.Is(err, minifuture.ErrCancelled) {
		t.Fatalf("a cancelled future's error is %v, want ErrCancelled", err)
	}
	if len(got) > 0 {
		t.Fatal("a callback ran inside Cancel: schedule it")
	}
	s.run()
	if !slices.Equal(got, log{"a:cancelled"}) {
		t.Fatalf("callbacks saw %v; want [a:cancelled]", got)
	}
	if f.Cancel() {
		t.Error("Cancel of a future already cancelled returned true")
	}
	done := minifuture.New[int](s)
	done.SetResult(1)
	if done.Cancel() || done.Cancelled() {
		t.Error("Cancel changed a future that was already done")
	}
	if !panics(func() { f.SetResult(3) }) {
		t.Error("SetResult on a cancelled future did not panic: a producer must check Done first")
	}
}

func panics(fn func()) (did bool) {
	defer func() { did = recover() != nil }()
	fn()
	return false
}
