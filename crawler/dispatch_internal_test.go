package crawler

import (
	"testing"
	"time"

	"loopkit/internal/wirelog"
	"loopkit/loop"
	"loopkit/task"
)

// A page whose answer came is recorded, whatever interrupts come after
// it. Here a second interrupt, which cancels what is in flight, arrives
// just when other requests' answers have come in the same turn of the
// loop, before their workers have run again: those answers must be
// recorded, not counted as to do, and what was recorded plus what is
// left to do is every URL found.
func TestAnswersAlreadyInAreRecordedOnInterrupt(t *testing.T) {
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(300, nil))
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var c *Crawler
	caught := map[string]bool{} // answers in, their workers not yet resumed
	cfg := Config{Roots: []string{root}, NoRobots: true, MaxTasks: 50, PerHost: 50}
	cfg.OnAttempt = func(*Attempt) {
		if c.stopping {
			return
		}
		for f := range c.fetches {
			if r, err := f.Result(); f.Done() && err == nil {
				caught[r.URL] = true
			}
		}
		if len(caught) > 0 {
			c.Interrupt() // no new requests
			c.Interrupt() // cancel what is in flight
		}
	}
	c, err = New(l, cfg)
	if err != nil {
		t.Fatal(err)
	}
	guard := l.CallLater(30*time.Second, func() { t.Error("crawl hung"); l.Stop() })
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) }); err != nil {
		t.Fatal(err)
	}
	guard.Cancel()
	if len(caught) == 0 {
		t.Fatal("no answer came in while its worker waited to run: the race this test is about never happened")
	}
	recorded := map[string]bool{}
	for _, r := range c.Records() {
		recorded[r.URL] = true
	}
	for u := range caught {
		if !recorded[u] {
			t.Errorf("%s: its answer came before the interrupt, but it was not recorded", u)
		}
	}
	if got := len(c.Records()) + c.Todo(); got != 301 {
		t.Fatalf("%d recorded + %d to do = %d, want the 301 URLs found", len(c.Records()), c.Todo(), got)
	}
	if srv.Count("h", "/") != 1 {
		t.Fatalf("the root was requested %d times", srv.Count("h", "/"))
	}
}
