package crawler

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/task"
)

// A big page goes to a worker, and while it is there the pool is
// saturated (a budget of one byte); its result comes back on the loop,
// and onRoom says there is room again. A small page never leaves the loop.
func TestParsePoolOffLoopAndBack(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	release := make(chan struct{})
	var parsedOnWorker []string
	parse := func(_ string, body []byte, page *url.URL) parsed {
		if len(body) >= 100 {
			<-release // held on the worker until the test lets go
		}
		return parsed{encoding: "utf-8", links: []*url.URL{page}}
	}
	pool := newParsePoolWith(l, parse, 1, 4, 100, 1)
	rooms := 0
	pool.onRoom = func() { rooms++ }
	page, _ := url.Parse("http://a.test/")
	_, err = task.Run(l, func(y task.Yield) (int, error) {
		small, err := pool.parse(y, "text/html", make([]byte, 10), page)
		if err != nil || len(small.links) != 1 || pool.offLoop != 0 || pool.saturated() {
			return 0, fmt.Errorf("small page: %+v %v, off loop %d, saturated %v", small, err, pool.offLoop, pool.saturated())
		}
		big := task.Spawn(l, func(y task.Yield) (parsed, error) {
			return pool.parse(y, "text/html", make([]byte, 500), page)
		})
		if err := task.Sleep(y, 20*time.Millisecond); err != nil {
			return 0, err
		}
		if !pool.saturated() || pool.pending != 500 || big.Done() {
			return 0, fmt.Errorf("big page on a worker: saturated %v, pending %d, done %v", pool.saturated(), pool.pending, big.Done())
		}
		close(release)
		res, err := task.Await(y, big)
		if err != nil || len(res.links) != 1 {
			return 0, fmt.Errorf("big page: %+v %v", res, err)
		}
		parsedOnWorker = append(parsedOnWorker, res.links[0].String())
		pool.close(y)
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pool.offLoop != 1 || pool.pending != 0 || pool.peak != 500 || rooms != 1 || len(parsedOnWorker) != 1 {
		t.Fatalf("off loop %d, pending %d, peak %d, rooms %d; want 1, 0, 500, 1", pool.offLoop, pool.pending, pool.peak, rooms)
	}
}

// While hold says so, the frontier hands out nothing, however ready its
// hosts; when it lets go, the next dispatch hands out.
func TestFrontierHandsOutNothingWhileHeld(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	held := true
	f := newFrontier(l, false, func() pace { return newPace(8, 0) })
	f.hold = func() bool { return held }
	h := f.host("http://a.test", "a.test", func(string) *host { return &host{robots: robotsKnown} })
	for i := range 3 {
		f.push(h, item{url: fmt.Sprintf("http://a.test/%d", i)})
	}
	var got []string
	_, err = task.Run(l, func(y task.Yield) (int, error) {
		w := task.Spawn(l, func(y task.Yield) (int, error) {
			j, err := f.next(y)
			got = append(got, j.item.url)
			return 0, err
		})
		if err := task.Sleep(y, 20*time.Millisecond); err != nil {
			return 0, err
		}
		if len(got) != 0 {
			return 0, fmt.Errorf("handed out %v while held", got)
		}
		held = false
		f.dispatch()
		_, err := task.Await(y, w)
		return 0, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "http://a.test/0" {
		t.Fatalf("handed out %v, want the first URL once let go", got)
	}
}
