package loop_test

import (
	"fmt"
	"net/netip"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// Callbacks run in the order they were scheduled; timers by deadline.
func Example() {
	l, err := loop.New(nil)
	if err != nil {
		panic(err)
	}
	defer l.Close()
	defer time.AfterFunc(10*time.Second, func() { l.CallSoonThreadsafe(l.Stop) }).Stop() // a broken loop fails the example, not hangs it
	l.CallLater(20*time.Millisecond, func() { fmt.Println("timer, 20ms"); l.Stop() })
	l.CallLater(10*time.Millisecond, func() { fmt.Println("timer, 10ms") })
	l.CallSoon(func() { fmt.Println("soon, first") })
	l.CallSoon(func() { fmt.Println("soon, second") })
	l.Run()
	// Output:
	// soon, first
	// soon, second
	// timer, 10ms
	// timer, 20ms
}

// The socket operations return futures; the loop does the waiting. This is
// a whole client and server on one loop, in callback style.
func ExampleLoop_SockConnect() {
	l, _ := loop.New(nil)
	defer l.Close()
	defer time.AfterFunc(10*time.Second, func() { l.CallSoonThreadsafe(l.Stop) }).Stop() // a broken loop fails the example, not hangs it
	lfd, addr, _ := l.Listen(netip.MustParseAddrPort("127.0.0.1:0"))
	l.SockAccept(lfd).AddDoneCallback(func(f *future.Future[loop.Accepted]) {
		conn, _ := f.Result()
		l.SockSendAll(conn.FD, []byte("hello from the server"))
	})
	buf := make([]byte, 64)
	got := future.New[string](l)
	l.SockConnect(addr).AddDoneCallback(func(f *future.Future[int]) {
		fd, err := f.Result()
		if err != nil {
			got.SetError(err)
			return
		}
		l.SockRecv(fd, buf).AddDoneCallback(func(r *future.Future[int]) {
			n, _ := r.Result()
			got.SetResult(string(buf[:n]))
		})
	})
	l.RunUntilComplete(got)
	fmt.Println(got.Result())
	// Output: hello from the server <nil>
}
