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
	pool := newParsePool(1, 4, 100, 1)
	pool.parseFn = parse
	pool.start(l)
	owner := &Crawler{loop: l}
	rooms := 0
	pool.onRoom = func(c *Crawler) {
		if c == owner {
			rooms++
		}
	}
	page, _ := url.Parse("http://a.test/")
	_, err = task.Run(l, func(y task.Yield) (int, error) {
		small, err := pool.parse(y, owner, "text/html", make([]byte, 10), page)
		if err != nil || len(small.links) != 1 || pool.offLoop.Load() != 0 || pool.saturated() {
			return 0, fmt.Errorf("small page: %+v %v, off loop %d, saturated %v", small, err, pool.offLoop.Load(), pool.saturated())
		}
		big := task.Spawn(l, func(y task.Yield) (parsed, error) {
			return pool.parse(y, owner, "text/html", make([]byte, 500), page)
		})
		if err := task.Sleep(y, 20*time.Millisecond); err != nil {
			return 0, err
		}
		if !pool.saturated() || pool.pending.Load() != 500 || big.Done() {
			return 0, fmt.Errorf("big page on a worker: saturated %v, pending %d, done %v", pool.saturated(), pool.pending.Load(), big.Done())
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
	if pool.offLoop.Load() != 1 || pool.pending.Load() != 0 || pool.peak.Load() != 500 || rooms != 1 || len(parsedOnWorker) != 1 {
		t.Fatalf("off loop %d, pending %d, peak %d, rooms %d; want 1, 0, 500, 1", pool.offLoop.Load(), pool.pending.Load(), pool.peak.Load(), rooms)
	}
}

// While the parse backlog is over its budget, no job is handed out,
// however ready the hosts; when the pool says there is room again, the
// crawler's dispatch hands out.
func TestNothingHandedOutWhileParsingIsBehind(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := New(l, Config{Roots: []string{"http://a.test/"}, NoRobots: true, ParseBudget: 100})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		u, _ := url.Parse(fmt.Sprintf("http://a.test/%d", i))
		c.addRoot(u)
	}
	c.parser.pending.Store(100) // as if 100 bytes awaited their parse
	var got []string
	_, err = task.Run(l, func(y task.Yield) (int, error) {
		w := task.Spawn(l, func(y task.Yield) (int, error) {
			j, err := c.next(y)
			if err == nil {
				got = append(got, j.Item.URL)
			}
			return 0, err
		})
		if err := task.Sleep(y, 20*time.Millisecond); err != nil {
			return 0, err
		}
		if len(got) != 0 {
			return 0, fmt.Errorf("handed out %v while parsing was behind", got)
		}
		c.parser.pending.Store(0)
		c.parser.onRoom(c) // what the pool's done does when it falls under budget
		_, err := task.Await(y, w)
		return 0, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "http://a.test/0" {
		t.Fatalf("handed out %v, want the first URL once there was room", got)
	}
}
