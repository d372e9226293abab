//go:build workshop

package wakeup

// AfterTakeAll makes in run fn just after takeAll has taken the posts:
// the tests use it to land a post there.
func AfterTakeAll(in *Inbox, fn func()) { in.afterTakeAll = fn }
