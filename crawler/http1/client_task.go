package http1

import "loopkit/task"

// Get fetches url from inside a task: the thin task-level API over Do.
// If the task is cancelled meanwhile, the request is aborted and Get
// returns the cancellation error.
func (c *Client) Get(y task.Yield, url string) (*Reply, error) {
	return c.Fetch(y, Request{Method: "GET", URL: url})
}

// Head is Get with the HEAD method: headers only, never a body.
func (c *Client) Head(y task.Yield, url string) (*Reply, error) {
	return c.Fetch(y, Request{Method: "HEAD", URL: url})
}

// Fetch sends any request from inside a task.
//
// The request begins in a loop callback, not on the task's own stack. A
// coroutine's stack starts small; parsing the URL, building the request
// and the write system call would grow it, by a copy, for every new task —
// the benchmark's profile showed that copying as an eighth of a task's CPU
// per request. The coroutine only makes the request's record and waits;
// the loop does the work. What it schedules is the record itself (a
// beginner), not a closure: one allocation less.
func (c *Client) Fetch(y task.Yield, req Request) (*Reply, error) {
	ex := newExchange(c, req)
	c.loop.Schedule((*beginner)(ex))
	return task.Await(y, &ex.result)
}
