//go:build workshop

package queuejoin_test

import (
	"errors"
	"slices"
	"testing"

	"loopkit/docs/workshop/internal/wstest"
	"loopkit/docs/workshop/queuejoin"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// joiner spawns a task that joins q.
func joiner(l *loop.Loop, q *queuejoin.Queue[string]) *task.Task[struct{}] {
	return task.Spawn(l, func(y task.Yield) (struct{}, error) {
		return struct{}{}, q.Join(y)
	})
}

// getter spawns a task that gets one item from q and appends it to *got.
func getter(l *loop.Loop, q *queuejoin.Queue[string], got *[]string) *task.Task[string] {
	return task.Spawn(l, func(y task.Yield) (string, error) {
		item, err := q.Get(y)
		if err == nil {
			*got = append(*got, item)
		}
		return item, err
	})
}

func TestJoinReturnsAtOnceWhenNothingIsUnfinished(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		q := queuejoin.New[string]()
		if err := q.Join(y); err != nil {
			t.Errorf("Join of a new queue: %v; want nil", err)
		}
		return nil
	})
}

// Join waits for TaskDone, not for Get: an item taken is still being
// processed, and processing it may put more.
func TestJoinWaitsForEveryTaskDone(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		q := queuejoin.New[string]()
		for _, s := range []string{"a", "b", "c"} {
			q.Put(s)
		}
		for range 3 {
			if _, err := q.Get(y); err != nil {
				return err
			}
		}
		if q.Len() != 0 || q.Unfinished() != 3 {
			t.Errorf("after 3 puts and 3 gets: Len %d, Unfinished %d; want 0, 3", q.Len(), q.Unfinished())
		}
		j := joiner(l, q)
		for i := range 2 {
			if err := q.TaskDone(); err != nil {
				return err
			}
			wstest.Turns(y, 3)
			if j.Done() {
				t.Errorf("Join returned (%v) after %d of 3 TaskDones", j.Err(), i+1)
				return nil
			}
		}
		q.TaskDone()
		if _, err := task.Await(y, j); err != nil || q.Unfinished() != 0 {
			t.Errorf("Join after the last TaskDone: %v, Unfinished %d; want nil, 0", err, q.Unfinished())
		}
		return nil
	})
}

// The crawler's protocol: workers take URLs, put the new links they find,
// and mark each URL done; the crawl is over when Join returns — and not
// before, though the queue is empty many times on the way.
func TestJoinWaitsForItemsPutWhileProcessing(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		links := map[string][]string{
			"/": {"/a", "/b"}, "/a": {"/c", "/b"}, "/b": {"/d"}, "/c": {"/"}, "/d": nil,
		}
		q := queuejoin.New[string]()
		seen := map[string]bool{"/": true}
		var done []string
		q.Put("/")
		var workers []future.Waitable
		for range 3 {
			workers = append(workers, task.Spawn(l, func(y task.Yield) (struct{}, error) {
				for {
					url, err := q.Get(y)
					if err != nil {
						return struct{}{}, err
					}
					task.Pause(y) // "fetching": give the others a turn
					for _, link := range links[url] {
						if !seen[link] {
							seen[link] = true
							q.Put(link)
						}
					}
					done = append(done, url)
					q.TaskDone()
				}
			}))
		}
		if err := q.Join(y); err != nil {
			return err
		}
		slices.Sort(done)
		if want := []string{"/", "/a", "/b", "/c", "/d"}; !slices.Equal(done, want) {
			t.Errorf("Join returned when %v were done; want %v", done, want)
		}
		for _, w := range workers {
			w.Cancel() // as the crawler does: the workers wait in Get for ever
		}
		return nil
	})
}

func TestGettersWaitAndAreServedInOrder(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		q := queuejoin.New[string]()
		var got []string
		gs := []*task.Task[string]{getter(l, q, &got), getter(l, q, &got), getter(l, q, &got)}
		wstest.Turns(y, 3)
		if len(got) > 0 || gs[0].Done() {
			t.Errorf("a Get on an empty queue returned: %v, %v", got, gs[0].Err())
			return nil
		}
		q.Put("x")
		q.Put("y")
		q.Put("z")
		var each []string // what the first, second and third getter got
		for _, g := range gs {
			v, err := task.Await[string](y, g)
			if err != nil {
				return err
			}
			each = append(each, v)
		}
		if !slices.Equal(each, []string{"x", "y", "z"}) {
			t.Errorf("the first, second and third getter got %v; want [x y z]: the first to ask is served first", each)
		}
		return nil
	})
}

func TestACancelledGetterTakesNothing(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		q := queuejoin.New[string]()
		var got []string
		g1, g2 := getter(l, q, &got), getter(l, q, &got)
		wstest.Turns(y, 3)
		g1.Cancel()
		wstest.Turns(y, 3)
		q.Put("x")
		if v, err := task.Await[string](y, g2); v != "x" || err != nil {
			t.Errorf("the second getter got %q, %v; want %q: the cancelled one must not swallow it", v, err, "x")
		}
		if !errors.Is(g1.Err(), future.ErrCancelled) || q.Len() != 0 {
			t.Errorf("the cancelled getter returned %v, and %d items are left; want a cancellation and 0", g1.Err(), q.Len())
		}
		return nil
	})
}

// In one callback the item arrives, waking the first getter, and that
// getter is cancelled before it resumes. The item must reach the second.
func TestAnItemWokenForACancelledGetterGoesToTheNext(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		q := queuejoin.New[string]()
		var got []string
		g1, g2 := getter(l, q, &got), getter(l, q, &got)
		wstest.Turns(y, 3)
		q.Put("x")
		g1.Cancel()
		if v, err := task.Await[string](y, g2); v != "x" || err != nil {
			t.Errorf("the second getter got %q, %v; want %q", v, err, "x")
		}
		if !errors.Is(g1.Err(), future.ErrCancelled) {
			t.Errorf("the cancelled getter returned %v; want a cancellation", g1.Err())
		}
		return nil
	})
}

func TestTooManyTaskDones(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		q := queuejoin.New[string]()
		if err := q.TaskDone(); !errors.Is(err, queuejoin.ErrTooManyTaskDone) {
			t.Errorf("TaskDone on a new queue: %v; want ErrTooManyTaskDone", err)
		}
		q.Put("a")
		q.Get(y)
		if err := q.TaskDone(); err != nil {
			t.Errorf("TaskDone for an item put: %v", err)
		}
		if err := q.TaskDone(); !errors.Is(err, queuejoin.ErrTooManyTaskDone) || q.Unfinished() != 0 {
			t.Errorf("a second TaskDone for one item: %v, Unfinished %d; want ErrTooManyTaskDone, 0", err, q.Unfinished())
		}
		return nil
	})
}

// Join is not a one-off: new work makes it wait again, and every task
// waiting in Join is released together.
func TestJoinWaitsAgainForNewWork(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		q := queuejoin.New[string]()
		q.Put("a")
		q.Get(y)
		q.TaskDone()
		if err := q.Join(y); err != nil {
			return err
		}
		q.Put("b")
		j1, j2 := joiner(l, q), joiner(l, q)
		wstest.Turns(y, 3)
		if j1.Done() || j2.Done() {
			t.Error("Join returned with an item put and not done")
			return nil
		}
		q.Get(y)
		q.TaskDone()
		if _, err := task.Gather[struct{}](y, j1, j2); err != nil {
			t.Errorf("the joiners after the last TaskDone: %v", err)
		}
		return nil
	})
}

// The wake-up only says "look": a task that calls Get while an item is
// there takes it at once, even if a woken getter has not resumed yet. The
// woken getter must look again, find the queue empty, and wait again.
func TestAWokenGetterLooksAgain(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		q := queuejoin.New[string]()
		var got []string
		g := getter(l, q, &got)
		wstest.Turns(y, 3)
		q.Put("x") // wakes g, which resumes on a later turn
		if v, err := q.Get(y); v != "x" || err != nil {
			t.Errorf("a Get with an item in the queue returned %q, %v; want %q at once", v, err, "x")
			return nil
		}
		wstest.Turns(y, 3) // g wakes up to an empty queue
		if g.Done() {
			t.Errorf("the woken getter returned (%v) though the queue was empty: it must look again and wait", g.Err())
			return nil
		}
		q.Put("y")
		if v, err := task.Await[string](y, g); v != "y" || err != nil {
			t.Errorf("the getter got %q, %v; want %q", v, err, "y")
		}
		return nil
	})
}
