//go:build workshop

package countdown_test

import (
	"errors"
	"slices"
	"testing"

	"loopkit/docs/workshop/countdown"
	"loopkit/docs/workshop/internal/wstest"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

func pending(l *loop.Loop, n int) []*future.Future[int] {
	fs := make([]*future.Future[int], n)
	for i := range fs {
		fs[i] = future.New[int](l)
	}
	return fs
}

func TestValuesComeInTheOrderOfTheInputs(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		fs := pending(l, 5)
		all := countdown.All(l, fs...)
		for i := len(fs) - 1; i >= 0; i-- { // complete them last to first
			fs[i].SetResult(10 * i)
			wstest.Turns(y, 1)
			if i > 0 && all.Done() {
				t.Errorf("All completed with %d inputs still pending", i)
				return nil
			}
		}
		got, err := task.Await(y, all)
		if want := []int{0, 10, 20, 30, 40}; err != nil || !slices.Equal(got, want) {
			t.Errorf("All = %v, %v; want %v, nil", got, err, want)
		}
		return nil
	})
}

func TestInputsAlreadyDoneBeforeAllWasCalled(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		fs := pending(l, 3)
		for i, f := range fs {
			f.SetResult(i + 1)
		}
		got, err := task.Await(y, countdown.All(l, fs...))
		if want := []int{1, 2, 3}; err != nil || !slices.Equal(got, want) {
			t.Errorf("All = %v, %v; want %v, nil", got, err, want)
		}
		return nil
	})
}

func TestNoInputsCompletesAtOnce(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		all := countdown.All[int](l)
		wstest.Turns(y, 2)
		if !all.Done() {
			t.Error("All() with no inputs never completes")
			return nil
		}
		if got, err := all.Result(); err != nil || len(got) != 0 {
			t.Errorf("All() = %v, %v; want an empty slice, nil", got, err)
		}
		return nil
	})
}

func TestFirstFailureFailsAllWithoutWaiting(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		fs := pending(l, 4)
		all := countdown.All(l, fs...)
		first, second := errors.New("first"), errors.New("second")
		fs[2].SetError(first)
		wstest.Turns(y, 1)
		if !all.Done() {
			t.Error("All still waits after an input failed")
			return nil
		}
		// Later completions must leave the output alone (the wstest guard
		// fails the test if one of them completes it a second time).
		fs[0].SetError(second)
		fs[1].SetResult(1)
		fs[3].Cancel()
		wstest.Turns(y, 2)
		if _, err := all.Result(); err != first {
			t.Errorf("All failed with %v, want the first failure (%v)", err, first)
		}
		return nil
	})
}

// A cancelled input is a failed input: the output fails with its error.
// The output itself was not cancelled by its owner, so it does not cancel
// the other inputs.
func TestCancelledInputFailsAll(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		fs := pending(l, 3)
		all := countdown.All(l, fs...)
		fs[0].SetResult(1)
		fs[1].Cancel()
		if _, err := task.Await(y, all); !errors.Is(err, future.ErrCancelled) {
			t.Errorf("All failed with %v, want an error matching future.ErrCancelled", err)
		}
		wstest.Turns(y, 2)
		if all.Cancelled() || fs[2].Cancelled() {
			t.Errorf("output cancelled %v, third input cancelled %v; want false, false: nobody cancelled the output",
				all.Cancelled(), fs[2].Cancelled())
		}
		return nil
	})
}

func TestCancellingAllCancelsThePendingInputs(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		fs := pending(l, 3)
		fs[0].SetResult(7)
		all := countdown.All(l, fs...)
		wstest.Turns(y, 1)
		if !all.Cancel() {
			t.Error("All's future could not be cancelled: it was already done")
			return nil
		}
		wstest.Turns(y, 2)
		if fs[0].Cancelled() || !fs[1].Cancelled() || !fs[2].Cancelled() {
			t.Errorf("after cancelling All, cancelled inputs = %v %v %v; want false true true",
				fs[0].Cancelled(), fs[1].Cancelled(), fs[2].Cancelled())
		}
		return nil
	})
}
