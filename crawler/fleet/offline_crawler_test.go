package fleet

import (
	"testing"

	"loopkit/crawler"
	"loopkit/crawler/resp"
	"loopkit/loop"
)

// A step that answers that a shard's lease is another's drops the shard
// here at once: it is no longer held, and counts as a lost lease. (A
// crawler that never crawls stands in for the process's own.)
func TestAStepThatFindsTheLeaseLostDropsTheShard(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f, _ := New(Options{CrawlID: "c"})
	c, err := crawler.New(l, crawler.Config{Roots: []string{"http://a/"}, Shared: f})
	if err != nil {
		t.Fatal(err)
	}
	f.c = c
	lse := &lease{shard: 2, token: 5, taken: map[string]string{}, settling: map[string]string{}}
	f.held[2] = lse
	run := &stepRun{groups: []stepGroup{{l: lse}}}
	lost := resp.Value{Kind: resp.KindArray, Elems: []resp.Value{
		{Kind: resp.KindInteger, Int: 2}, {Kind: resp.KindInteger, Int: 0}, {Kind: resp.KindInteger, Int: 0},
		{Kind: resp.KindArray, Elems: []resp.Value{}}, {Kind: resp.KindArray, Elems: []resp.Value{}}}}
	f.apply(run, []resp.Value{{Kind: resp.KindInteger}, {Kind: resp.KindInteger}, {Kind: resp.KindInteger}, {Kind: resp.KindInteger, Int: -1}, lost})
	if f.held[2] != nil || f.Stats.LostLease != 1 {
		t.Fatalf("held %v, lost leases %d: want the shard dropped", f.held[2], f.Stats.LostLease)
	}
}
