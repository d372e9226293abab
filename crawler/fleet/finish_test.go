package fleet

import (
	"errors"
	"testing"

	"loopkit/crawler"
	"loopkit/crawler/journal"
	"loopkit/internal/redistest"
	"loopkit/task"
)

// A crawl that Redis lost by the time a process finishes (Redis restarted
// empty, its keys deleted) ends that process with ErrGone, not as a crawl
// done: its last release found no crawl to give its shards back to.
func TestFinishingAfterRedisLostTheCrawlIsErrGone(t *testing.T) {
	t.Parallel() // each test has its own Redis
	rds := redistest.Start(t, redistest.Options{})
	f, _, l := offlineWith(t, Options{CrawlID: "c", Redis: rds.URL(), Settings: journal.Settings{Roots: []string{"http://a/"}}},
		crawler.Config{NoRobots: true})
	defer f.Close()
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Join(y, l) }); err != nil {
		t.Fatal(err)
	}
	if _, err := rds.CLI("DEL", "loopkit:c:instance"); err != nil {
		t.Fatal(err)
	}
	_, err := task.Run(l, func(y task.Yield) (int, error) { return 0, f.Finish(y) })
	if !errors.Is(err, ErrGone) {
		t.Fatalf("Finish on a crawl Redis lost: %v, want ErrGone", err)
	}
}
