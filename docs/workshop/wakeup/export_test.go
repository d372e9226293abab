//go:build workshop

package wakeup

// AfterTakeAll makes in run fn just after takeAll has taken the posts:
// the tests use it to land a post there.
func AfterTakeAll(in *Inbox, fn func()) { in.afterTakeAll = fn }

// AfterPendingRead makes in run fn once, just after the next read of its
// pending flag: the tests use it to land a post there.
func AfterPendingRead(in *Inbox, fn func()) { in.pending.afterRead = fn }
