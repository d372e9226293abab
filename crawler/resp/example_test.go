package resp_test

import (
	"fmt"

	"loopkit/crawler/resp"
	"loopkit/loop"
	"loopkit/task"
)

// A socket returns whatever has arrived. Here two pipelined replies come
// in three reads, cut in the middle of a length and of a bulk string. The
// parser keeps what it has and goes on; Feed stops at the end of each
// reply, and says where that was.
func ExampleParser() {
	reads := []string{"*2\r\n$5\r\nhel", "lo\r\n:42\r\n+O", "K\r\n"}

	p := resp.NewParser(resp.Limits{})
	for _, read := range reads {
		b := []byte(read)
		for len(b) > 0 {
			n, err := p.Feed(b)
			fmt.Printf("fed %q: used %d, done %v, err %v\n", b, n, p.Done(), err)
			b = b[n:]
			if p.Done() {
				fmt.Println("  reply:", p.Reply())
				p.Reset()
			}
		}
	}
	// Output:
	// fed "*2\r\n$5\r\nhel": used 11, done false, err <nil>
	// fed "lo\r\n:42\r\n+O": used 9, done true, err <nil>
	//   reply: ["hello", (integer) 42]
	// fed "+O": used 2, done false, err <nil>
	// fed "K\r\n": used 3, done true, err <nil>
	//   reply: OK
}

// A task that counts pages in Redis. Send pipelines: both INCRs leave in
// one write, before either reply has come back. (Not run here: it needs a
// Redis server on 127.0.0.1:6379.)
func ExampleClient_Do() {
	l, _ := loop.New(nil)
	defer l.Close()
	client, err := resp.NewClient(l, "redis://127.0.0.1:6379/0", resp.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Close()

	pages, err := task.Run(l, func(y task.Yield) (int64, error) {
		first := client.Send("INCR", "pages")
		second := client.Send("INCR", "pages")
		if _, err := task.Await(y, first); err != nil {
			return 0, err
		}
		return resp.Int(task.Await(y, second))
	})
	fmt.Println(pages, err)
}
