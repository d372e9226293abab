package fleet

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/journal"
	"loopkit/crawler/resp"
	"loopkit/loop"
	"loopkit/task"
)

// Options configure a Fleet. Zero fields take the defaults in brackets.
// The errors of New and Join name them ("Options.CrawlID"); a command
// speaks of its flags instead.
type Options struct {
	Redis   string // redis://[user:password@]host:port/db, of a Redis 7.0 or later
	CrawlID string // names the crawl: its keys are loopkit:ID:...
	// Shards is how many shards the crawl's hosts are split into. It is
	// fixed when the crawl is created; a process joining later takes the
	// stored number. [16]
	Shards int
	// Lease is how long a shard's lease lasts without a renewal: how long
	// a dead process's shards wait before another takes them. [3s]
	Lease time.Duration
	// Window is how many URLs of its shards this process takes at a time,
	// at most. [2 × the crawl's MaxTasks]
	Window int
	// Owner names this process in the leases. [host:pid:random]
	Owner string
	// Settings and Politeness are the crawl's: a process whose settings
	// or politeness differ from the crawl's is refused, with how. With no
	// Roots, a process joins a crawl that exists (waiting for it, up to
	// JoinWait), and takes its roots.
	Settings   journal.Settings
	Politeness crawler.Politeness
	// JoinWait is how long a process with no roots waits for its crawl
	// to be created. [1m]
	JoinWait time.Duration
	// Notice hears what the operator should know: Redis lost and back,
	// shards taken and given up.
	Notice func(string)
}

// ErrGone is the error of a crawl that is no longer in Redis: Redis came
// back empty (restarted without persistence, or failed over to a replica
// that did not have the crawl), or its keys were deleted. Every process
// stops on it: what is done and what is left cannot be told any more.
var ErrGone = errors.New("fleet: the crawl is no longer in Redis")

// Fleet is this process's part in a crawl shared on Redis. It is a
// crawler.Shared: the crawler hands it the links it finds and the pages
// it settles, and it offers the crawler the URLs of the shards it holds.
// Everything it does runs on the crawler's loop.
type Fleet struct {
	opts     Options
	prefix   string
	instance string // the crawl's, as Join found it: every script checks it
	loop     *loop.Loop
	client   *resp.Client
	c        *crawler.Crawler

	held      map[int]*lease // shards this process holds
	acquiring bool           // an acquire is on its way
	live      int            // processes alive, at the last heartbeat
	tick      *loop.Timer    // the next heartbeat
	ended     bool           // the crawl was told to end
	finished  bool           // Finish was called
	err       error          // why the fleet stopped the crawl, if it did
	lost      bool           // Redis is unreachable: said once until it is back

	batch            // what the next step sends (step.go)
	cur     *stepRun // the step on its way, or waiting to be sent again
	seq     int64    // the last step's number
	noticed map[string]bool

	Stats Stats
}

// Stats count what this process did for the fleet.
type Stats struct {
	Found     int // links sent to the fleet's seen set
	New       int // of those, never seen by any process
	Capped    int // of those, over MaxPagesPerHost or MaxQueryVariants
	Taken     int // URLs taken from shard queues
	Settled   int // URLs settled
	Fenced    int // pages done whose shard was lost before they were settled: fetched again elsewhere
	Acquired  int // leases taken
	LostLease int // leases lost (expired, or taken by another process)
	GivenBack int // leases given back to even the fleet out
	Steps     int // step commands run: each carries a turn's links, settles and takes
}

// New prepares a fleet; Join connects it.
func New(opts Options) (*Fleet, error) {
	if opts.CrawlID == "" || strings.ContainsAny(opts.CrawlID, " \t\r\n:{}") {
		return nil, errors.New("Options.CrawlID must be a name without spaces, colons or braces")
	}
	if opts.Shards <= 0 {
		opts.Shards = 16
	}
	if opts.Lease <= 0 {
		opts.Lease = 3 * time.Second
	}
	if opts.JoinWait <= 0 {
		opts.JoinWait = time.Minute
	}
	if opts.Owner == "" {
		host, _ := os.Hostname()
		opts.Owner = fmt.Sprintf("%s:%d:%04x", host, os.Getpid(), rand.IntN(1<<16))
	}
	if opts.Notice == nil {
		opts.Notice = func(string) {}
	}
	return &Fleet{opts: opts, prefix: "loopkit:" + opts.CrawlID + ":", held: map[int]*lease{},
		batch: newBatch(), noticed: map[string]bool{}}, nil
}

// Roots are the crawl's roots, as Join found them (or gave them).
func (f *Fleet) Roots() []string { return f.opts.Settings.Roots }

// Start is crawler.Shared's: the crawl begins on c.
func (f *Fleet) Start(c *crawler.Crawler) {
	f.c = c
	if f.opts.Window <= 0 {
		f.opts.Window = 2 * c.MaxTasks()
	}
	f.heartbeat()
}

// Finish is crawler.Shared's: the crawl is over here. What is not sent
// is sent, and the shards are given back, what was taken and not settled
// going back to their queues for another process. Its error is why the
// fleet stopped the crawl, if it did.
func (f *Fleet) Finish(y task.Yield) error {
	f.finished = true
	if f.tick != nil {
		f.tick.Cancel()
	}
	if f.err != nil {
		return f.err
	}
	for tries := 0; f.unsent() && tries < 100 && f.err == nil; tries++ {
		f.send()
		if err := task.Sleep(y, 20*time.Millisecond); err != nil {
			break
		}
	}
	if f.err != nil {
		return f.err
	}
	if f.unsent() {
		f.opts.Notice("fleet: Redis did not take everything before the end; what was not settled will be fetched again by another process")
	}
	args := []any{f.prefix, f.instance, f.opts.Owner, 1}
	for _, shard := range keysOf(f.held) {
		args = append(args, f.releaseArgs(f.held[shard])...)
		f.forget(f.held[shard])
	}
	if _, err := release.Run(y, f.client, nil, args...); err != nil && f.gone(err) {
		return f.goneError()
	}
	return nil
}

// Close closes the connection to Redis.
func (f *Fleet) Close() {
	if f.client != nil {
		f.client.Close()
	}
}

// Commands is how many commands this process sent Redis.
func (f *Fleet) Commands() uint64 {
	if f.client == nil {
		return 0
	}
	return f.client.Stats().Commands
}

// Tallies are the crawl's counts kept in Redis, over every process: the
// records by kind, and put_back (the URLs a dead process had taken,
// handed to the next: each may have been fetched twice).
func (f *Fleet) Tallies(y task.Yield) (map[string]int, error) {
	v, err := resp.Strings(f.client.Do(y, "HGETALL", f.prefix+"tally"))
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for i := 0; i+1 < len(v); i += 2 {
		var n int
		fmt.Sscan(v[i+1], &n)
		out[v[i]] = n
	}
	return out, nil
}

// fail stops the crawl on err, once: Crawl returns it (Finish).
func (f *Fleet) fail(err error) {
	if f.err != nil {
		return
	}
	f.err = err
	f.end()
}

// end tells the crawler the crawl is over here.
func (f *Fleet) end() {
	if !f.ended && f.c != nil {
		f.ended = true
		f.c.End()
	}
}

// judge acts on a script's error: a crawl gone, or a write Redis refused
// (out of memory, a read-only replica), stops the crawl; anything else
// (Redis unreachable, loading, busy) is tried again. It reports whether
// the error stopped the crawl.
func (f *Fleet) judge(err error) bool {
	var rerr *resp.Error
	switch {
	case f.gone(err):
		f.fail(f.goneError())
	case errors.As(err, &rerr) && !transient[rerr.Code()]:
		f.fail(fmt.Errorf("fleet: Redis refused the crawl's writes (%w): this process stops; what it took and did not settle goes back to its shards' queues for the next process once its leases run out", err))
	default:
		return false
	}
	return true
}

// transient are the error replies that say "not now" rather than "no".
var transient = map[string]bool{"LOADING": true, "BUSY": true, "TRYAGAIN": true, "MASTERDOWN": true, "CLUSTERDOWN": true}

func (f *Fleet) gone(err error) bool {
	var rerr *resp.Error
	return errors.As(err, &rerr) && rerr.Code() == "GONE"
}

func (f *Fleet) goneError() error {
	return fmt.Errorf("%w: crawl %s (Redis came back without it: restarted without persistence, failed over to a replica that did not have it, or its keys deleted); "+
		"what this process wrote to its output is done, the rest is lost to Redis; to crawl again, run the first process again with its roots, then the others",
		ErrGone, f.opts.CrawlID)
}

// notice says msg once.
func (f *Fleet) notice(msg string) {
	if !f.noticed[msg] {
		f.noticed[msg] = true
		f.opts.Notice(msg)
	}
}

func (f *Fleet) connEvent(ev resp.ConnEvent) {
	switch {
	case !ev.Up && !f.lost:
		f.lost = true
		f.opts.Notice(fmt.Sprintf("fleet: Redis lost (%v): retrying; this process's shards pause when their leases run out", ev.Err))
	case ev.Up && f.lost:
		f.lost = false
		f.opts.Notice("fleet: Redis is back")
	}
	if ev.Up {
		// What was answered may not all be there: a Redis restarted from
		// its file, or a replica that took over, may have lost the last
		// writes it answered. Each shard's processing set is read back.
		for _, l := range f.held {
			l.recheck = true
		}
		f.schedule() // and a step that waited for the connection goes now
	}
}
