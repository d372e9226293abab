package fleet

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/journal"
	"loopkit/crawler/resp"
	"loopkit/loop"
	"loopkit/task"
)

// Joining a crawl: reach Redis, then create the crawl or check that this
// process's settings are its. A process with no roots stores nothing.

// stored is what Redis keeps of a crawl's settings.
type stored struct {
	journal.Settings
	Politeness crawler.Politeness `json:"politeness"`
	Shards     int                `json:"shards"`
}

// Join connects to Redis on l and joins the crawl: creates it with this
// process's settings, or checks they are the crawl's. A process with no
// roots stores nothing: it waits for the crawl to exist (Options.JoinWait)
// and takes its roots. Join fails if Redis cannot be reached, or the
// crawl has other settings. Run it from a task on the crawl's loop,
// before the crawl.
func (f *Fleet) Join(y task.Yield, l *loop.Loop) error {
	f.loop = l
	client, err := resp.NewClient(l, f.opts.Redis, resp.Options{Scripts: scripts, OnConnEvent: f.connEvent})
	if err != nil {
		return fmt.Errorf("Options.Redis: %w", err)
	}
	f.client = client
	if err := f.reach(y); err != nil {
		client.Close()
		return fmt.Errorf("Options.Redis %s: cannot reach Redis: %w", f.opts.Redis, err)
	}
	mine := stored{f.opts.Settings, f.opts.Politeness, f.opts.Shards}
	b, err := json.Marshal(mine)
	if err != nil {
		return err
	}
	instance := fmt.Sprintf("%016x", rand.Uint64())
	var raw string
	// Both ways are safe to run twice, and are, when the connection drops.
	err = f.retry(y, func() (err error) {
		if len(mine.Roots) == 0 {
			raw, instance, err = f.await(y)
			return err
		}
		v, err := resp.Strings(create.Run(y, client, nil, f.prefix, b, instance))
		if err == nil && len(v) == 2 {
			raw, instance = v[0], v[1]
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("Options.Redis: joining crawl %s: %w", f.opts.CrawlID, err)
	}
	var theirs stored
	if err := json.Unmarshal([]byte(raw), &theirs); err != nil {
		return fmt.Errorf("Options.CrawlID %s: the crawl's settings in Redis: %w", f.opts.CrawlID, err)
	}
	if len(mine.Roots) == 0 { // joining with no roots: the crawl's
		f.opts.Settings.Roots = theirs.Roots
		mine.Roots = theirs.Roots
	}
	diff := append(journal.Differences(theirs.Settings, mine.Settings), theirs.Politeness.Differences(mine.Politeness)...)
	if len(diff) > 0 {
		return fmt.Errorf("Options.CrawlID %s: the crawl was started with other settings (%s); give the same, or another Options.CrawlID",
			f.opts.CrawlID, strings.Join(diff, "; "))
	}
	f.opts.Shards, f.instance = theirs.Shards, instance
	return nil
}

// reach waits for Redis to answer a PING, for a few seconds (a fleet's
// processes and its Redis are often started together), and fails with
// why if it does not.
func (f *Fleet) reach(y task.Yield) error {
	deadline := f.loop.Time() + min(f.opts.JoinWait, 5*time.Second)
	for said := false; ; said = true {
		_, err := f.client.Do(y, "PING")
		if err == nil || f.loop.Time() > deadline {
			return err
		}
		if !said {
			f.opts.Notice(fmt.Sprintf("fleet: waiting for Redis at %s (%v)", f.client.URL().Addr(), err))
		}
		if err := task.Sleep(y, 100*time.Millisecond); err != nil {
			return err
		}
	}
}

// retry runs do until it succeeds or fails for another reason than a lost
// connection, for up to a lease and a few seconds.
func (f *Fleet) retry(y task.Yield, do func() error) error {
	deadline := f.loop.Time() + f.opts.Lease + 5*time.Second
	for {
		err := do()
		lost := errors.Is(err, resp.ErrConnectionLost) || errors.Is(err, resp.ErrNotConnected)
		if !lost || f.loop.Time() > deadline {
			return err
		}
		if err := task.Sleep(y, 100*time.Millisecond); err != nil {
			return err
		}
	}
}

// await waits for the crawl's settings to be stored by a process with
// roots, and returns them with the crawl's instance.
func (f *Fleet) await(y task.Yield) (settings, instance string, err error) {
	deadline := f.loop.Time() + f.opts.JoinWait
	for said := false; ; said = true {
		v, err := resp.Array(f.client.Do(y, "MGET", f.prefix+"settings", f.prefix+"instance"))
		if err != nil {
			return "", "", err
		}
		if len(v) == 2 && v[0].Kind == resp.KindBulk && v[1].Kind == resp.KindBulk {
			return v[0].Str, v[1].Str, nil
		}
		if f.loop.Time() > deadline {
			return "", "", fmt.Errorf("no such crawl after waiting %v: start it with its roots first", f.opts.JoinWait)
		}
		if !said {
			f.opts.Notice(fmt.Sprintf("fleet: waiting for crawl %s to be started by a process with its roots", f.opts.CrawlID))
		}
		if err := task.Sleep(y, 200*time.Millisecond); err != nil {
			return "", "", err
		}
	}
}
