package loop

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"runtime/debug"
	"sync"

	"loopkit/future"
)

// executor runs blocking work off the loop, one goroutine per job. asyncio
// uses a bounded thread pool because threads are dear; goroutines are
// cheap, and the work that comes here (DNS lookups) is rare and short, so
// a pool would only add a queue to explain.
type executor struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func (e *executor) init() {
	e.ctx, e.cancel = context.WithCancel(context.Background())
}

// shutdown cancels the jobs' context and waits for their goroutines, so a
// closed loop leaves none behind. Jobs must honour ctx to end promptly.
func (e *executor) shutdown() {
	e.cancel()
	e.wg.Wait()
}

// RunInExecutor runs fn on its own goroutine and completes the returned
// future on the loop with fn's result. fn must not touch the loop (post to
// it with CallSoonThreadsafe if it must); its ctx is cancelled when the
// loop closes, and Close waits for fn to return. A panic in fn becomes the
// future's error, with fn's stack.
func RunInExecutor[T any](l *Loop, fn func(ctx context.Context) (T, error)) *future.Future[T] {
	f := future.New[T](l)
	if l.closed {
		f.SetError(ErrClosed)
		return f
	}
	unregister := l.OnClose(func() {
		if !f.Done() {
			f.SetError(ErrClosed)
		}
	})
	l.executor.wg.Add(1)
	go func() {
		defer l.executor.wg.Done()
		v, err := callCatchingPanic(l.executor.ctx, fn)
		// If the loop has closed meanwhile, the result has nowhere to go
		// and the future already failed with ErrClosed.
		_ = l.CallSoonThreadsafe(func() {
			unregister()
			if f.Done() {
				return
			}
			if err != nil {
				f.SetError(err)
			} else {
				f.SetResult(v)
			}
		})
	}()
	return f
}

func callCatchingPanic[T any](ctx context.Context, fn func(context.Context) (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("loop: executor job panicked: %v\n%s", p, debug.Stack())
		}
	}()
	return fn(ctx)
}

// Resolve looks host up in the executor, as asyncio runs getaddrinfo in a
// thread: the system resolver blocks, and blocking the loop would stall
// every connection. An IP literal needs no lookup. This is the only use of
// Go's net package in the reactor: for DNS, never for sockets.
func (l *Loop) Resolve(host string) *future.Future[[]netip.Addr] {
	if ip, err := netip.ParseAddr(host); err == nil {
		f := future.New[[]netip.Addr](l)
		f.SetResult([]netip.Addr{ip})
		return f
	}
	return RunInExecutor(l, func(ctx context.Context) ([]netip.Addr, error) {
		addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, fmt.Errorf("resolve %q: %w", host, err)
		}
		for i, a := range addrs {
			addrs[i] = a.Unmap() // the resolver may say ::ffff:127.0.0.1
		}
		return addrs, nil
	})
}
