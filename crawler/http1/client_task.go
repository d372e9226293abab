package http1

import "loopkit/task"

// Get fetches url from inside a task: the thin task-level API over Do.
// If the task is cancelled meanwhile, the request is aborted and Get
// returns the cancellation error.
func (c *Client) Get(y task.Yield, url string) (*Reply, error) {
	return task.Await(y, c.Do(Request{Method: "GET", URL: url}))
}

// Head is Get with the HEAD method: headers only, never a body.
func (c *Client) Head(y task.Yield, url string) (*Reply, error) {
	return task.Await(y, c.Do(Request{Method: "HEAD", URL: url}))
}

// Fetch sends any request from inside a task.
func (c *Client) Fetch(y task.Yield, req Request) (*Reply, error) {
	return task.Await(y, c.Do(req))
}
