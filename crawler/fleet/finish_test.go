package fleet

import (
	"errors"
	"testing"

	"loopkit/crawler"
	"loopkit/crawler/journal"
	"loopkit/internal/redistest"
	"loopkit/loop"
	"loopkit/task"
)

// joinedOffline is a fleet joined to a crawl of its own on a Redis of its
// own, with a crawler that never crawls: for what Finish does.
func joinedOffline(t *testing.T) (*redistest.Server, *Fleet, *loop.Loop) {
	t.Helper()
	rds := redistest.Start(t, redistest.Options{})
	f, _, l := offlineWith(t, Options{CrawlID: "c", Redis: rds.URL(), Settings: journal.Settings{Roots: []string{"http://a/"}}},
		crawler.Config{NoRobots: true})
	t.Cleanup(f.Close)
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) }); err != nil {
		t.Fatal(err)
	}
	return rds, f, l
}

// A crawl that Redis lost by the time a process finishes (Redis restarted
// empty, its keys deleted) ends that process with ErrGone, not as a crawl
// done: its last release found no crawl to give its shards back to.
func TestFinishingAfterRedisLostTheCrawlIsErrGone(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds, f, l := joinedOffline(t)
	if _, err := rds.CLI("DEL", "loopkit:c:instance"); err != nil {
		t.Fatal(err)
	}
	_, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Finish(y) })
	if !errors.Is(err, ErrGone) {
		t.Fatalf("Finish on a crawl Redis lost: %v, want ErrGone", err)
	}
}

// Finish lets go of every lease it gives back: none is left held, with a
// timer that would later count it lost and say its shard paused, after
// the crawl is over.
func TestFinishLetsGoOfTheLeasesItGivesBack(t *testing.T) {
	t.Parallel() // each test has its own Redis
	_, f, l := joinedOffline(t)
	lse := &lease{shard: 3, token: 1, taken: map[string]string{}, settling: map[string]string{}}
	f.held[3] = lse
	f.extend(lse, l.Time())
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Finish(y) }); err != nil {
		t.Fatal(err)
	}
	if len(f.held) != 0 || lse.timer != nil {
		t.Fatalf("after Finish: %d leases held, a timer left %v; want none", len(f.held), lse.timer != nil)
	}
}
