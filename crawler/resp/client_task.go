package resp

import "loopkit/task"

// Do sends a command from inside a task and waits for its reply: the thin
// task-level API over Send.
//
//	n, err := resp.Int(client.Do(y, "INCR", "pages"))
//
// A task that sends several commands before awaiting any pipelines them:
// Send them all, then Await each future.
func (c *Client) Do(y task.Yield, args ...any) (Value, error) {
	return task.Await(y, c.send(args, false))
}

// DoIdempotent is Do with SendIdempotent: a command safe to run twice,
// sent once more if the connection is lost before its reply.
func (c *Client) DoIdempotent(y task.Yield, args ...any) (Value, error) {
	return task.Await(y, c.send(args, true))
}
