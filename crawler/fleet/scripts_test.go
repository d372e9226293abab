package fleet

import (
	"errors"
	"testing"
	"time"

	"loopkit/crawler/resp"
	"loopkit/internal/redistest"
	"loopkit/loop"
	"loopkit/task"
)

// The lease and its fencing token, script by script: a process whose lease
// expired and was taken by another cannot take, settle or keep anything
// in the shard, nor renew it; the new holder finds what the old one had
// taken back at the front of the queue.
func TestFencingRefusesAProcessThatLostItsLease(t *testing.T) {
	rds := redistest.Start(t, redistest.Options{})
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := resp.NewClient(l, rds.URL(), resp.Options{Scripts: scripts})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const p = "loopkit:t:"
	keys := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, p+n+":0")
		}
		return out
	}
	_, err = task.Run(l, func(y task.Yield) (int, error) {
		must := func(v resp.Value, err error) resp.Value {
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		must(found.Run(y, c, []string{p + "seen", p + "pending"}, p, 0, "0 10 http://a/1", "http://a/1", 0, "0 10 http://a/2", "http://a/2"))
		a := must(acquire.Run(y, c, nil, p, "A", 100, 0))
		if a.Elems[0].Int != 0 || a.Elems[1].Int != 1 {
			t.Fatalf("A's acquire: %v", a)
		}
		if v := must(acquire.Run(y, c, nil, p, "B", 100, 0)); v.Kind != resp.KindNil {
			t.Fatalf("B took a held lease: %v", v)
		}
		taken := must(take.Run(y, c, keys("lease", "q", "p"), "A", 1, 1))
		if len(taken.Elems) != 1 || taken.Elems[0].Str != "0 10 http://a/1" {
			t.Fatalf("A took %v", taken)
		}
		if err := task.Sleep(y, 150*time.Millisecond); err != nil { // A's lease expires
			return 0, err
		}
		b := must(acquire.Run(y, c, nil, p, "B", 10000, 0))
		if b.Elems[1].Int != 2 || b.Elems[2].Int != 1 {
			t.Fatalf("B's acquire: %v, want token 2 and A's one URL back", b)
		}
		var rerr *resp.Error
		for name, try := range map[string]func() (resp.Value, error){
			"take":   func() (resp.Value, error) { return take.Run(y, c, keys("lease", "q", "p"), "A", 1, 5) },
			"settle": func() (resp.Value, error) { return settle.Run(y, c, keys("lease", "p")[:2], "A", 1) },
			"keep":   func() (resp.Value, error) { return keep.Run(y, c, keys("lease", "robots"), "A", 1, "f", "v") },
		} {
			if _, err := try(); !errors.As(err, &rerr) || rerr.Code() != "FENCED" {
				t.Errorf("A's %s after losing the lease: %v, want FENCED", name, err)
			}
		}
		if n, _ := resp.Int(renew.Run(y, c, keys("lease"), "A", 1, 100)); n != 0 {
			t.Error("A renewed a lease B holds")
		}
		back := must(take.Run(y, c, keys("lease", "q", "p"), "B", 2, 5))
		if len(back.Elems) != 2 || back.Elems[0].Str != "0 10 http://a/1" {
			t.Fatalf("B took %v, want A's URL first, then the other", back)
		}
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
