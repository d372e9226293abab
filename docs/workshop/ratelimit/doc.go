// Package ratelimit is workshop exercise 3: a token bucket, as a task
// primitive like task.Semaphore.
//
// A crawler that is polite to a server spaces its requests: a request may
// start only when it can take a token from a bucket that refills at a
// fixed rate. The bucket holds at most burst tokens (so a quiet spell buys
// a short burst, not an unbounded one), and gains one every interval.
//
// Write the Bucket:
//
//   - NewBucket(l, burst, every) starts full, and adds a token every
//     "every" through a loop timer that calls Add(1) — armed only while
//     the bucket is not full, so an idle bucket costs no wake-ups.
//   - Take(y) takes a token, suspending the task until one is there.
//     Waiters are served first come, first served, and a task that calls
//     Take while others wait queues behind them even if a token has just
//     been added: the token is handed to the first waiter, not left in the
//     bucket for whoever asks next.
//   - Take is cancellation-safe: a task cancelled while it waits returns an
//     error matching future.ErrCancelled and consumes no token, and a token
//     handed to a waiter at the very moment it was cancelled is passed on
//     to the next waiter (or back into the bucket), never lost.
//   - Add(n) adds n tokens: to waiters first, the rest into the bucket,
//     which never holds more than burst.
//   - Tokens reports how many tokens the bucket holds now.
//
// The tests drive the bucket with Add and an interval of an hour, so they
// need no clock; one test checks that the timer refills it.
//
// Edit exercise.go; run the tests with
//
//	go test -tags workshop ./docs/workshop/ratelimit
package ratelimit
