package http1_test

import (
	"fmt"

	"loopkit/crawler/http1"
)

// A socket returns whatever has arrived; here the response comes in two
// reads that cut it mid-header. The parser keeps what it has and goes on.
func ExampleParser() {
	response := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n\r\nhello, world"
	reads := []string{response[:30], response[30:]}

	p := http1.NewParser("GET", http1.Limits{})
	for _, read := range reads {
		n, err := p.Feed([]byte(read))
		fmt.Printf("fed %d bytes, used %d, done %v, err %v\n", len(read), n, p.Done(), err)
	}
	resp := p.Response()
	fmt.Println(resp.StatusCode, resp.Header.Get("content-type"), resp.ContentLength)
	fmt.Printf("%s (reuse the connection: %v)\n", resp.Body, !resp.Close)
	// Output:
	// fed 30 bytes, used 30, done false, err <nil>
	// fed 47 bytes, used 47, done true, err <nil>
	// 200 text/plain 12
	// hello, world (reuse the connection: true)
}
