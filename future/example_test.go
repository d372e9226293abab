package future_test

import (
	"fmt"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// A future connects a producer and a consumer that never call each other:
// the consumer adds a callback, the producer sets the result, and the loop
// runs the callback on its next turn.
func Example() {
	l, _ := loop.New(nil)
	defer l.Close()
	defer time.AfterFunc(10*time.Second, func() { l.CallSoonThreadsafe(l.Stop) }).Stop() // a broken loop fails the example, not hangs it

	f := future.New[string](l)
	f.AddDoneCallback(func(f *future.Future[string]) {
		v, _ := f.Result()
		fmt.Println("callback got:", v)
	})
	l.CallLater(0, func() {
		f.SetResult("hello")
		fmt.Println("result set")
	})
	// RunUntilComplete adds its own callback (Stop) after ours, so ours
	// has run by the time the loop stops.
	l.RunUntilComplete(f)
	// Output:
	// result set
	// callback got: hello
}
