package fleet

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
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
type Options struct {
	Redis   string // redis://[user:password@]host:port/db
	CrawlID string // names the crawl: its keys are loopkit:ID:...
	// Shards is how many shards the crawl's hosts are split into. It is
	// fixed when the crawl is created; a process joining later takes the
	// stored number. [16]
	Shards int
	// Lease is how long a shard's lease lasts without a renewal: how long
	// a dead process's shards wait before another takes them. [3s]
	Lease time.Duration
	// Window is how many URLs of a shard are taken at a time, at most.
	// [2 × the crawl's MaxTasks]
	Window int
	// Owner names this process in the leases. [host:pid:random]
	Owner string
	// Settings are the crawl's: a process whose settings differ from the
	// crawl's is refused. With no Roots, a process joins a crawl that
	// exists, and takes its roots.
	Settings journal.Settings
	// Notice hears what the operator should know: Redis lost and back,
	// shards taken and given up.
	Notice func(string)
}

// Fleet is this process's part in a crawl shared on Redis. It is a
// crawler.Shared: the crawler hands it the links it finds and the pages
// it settles, and it offers the crawler the URLs of the shards it holds.
// Everything it does runs on the crawler's loop.
type Fleet struct {
	opts   Options
	prefix string
	loop   *loop.Loop
	client *resp.Client
	c      *crawler.Crawler

	held      map[int]*lease // shards this process holds
	acquiring bool           // an acquire is on its way
	live      int            // processes alive, at the last heartbeat
	tick      *loop.Timer
	ended     bool
	finished  bool

	found     []any         // (shard, entry, url) triples not yet sent
	settled   map[int][]any // by shard: (entry, url, kind) triples not yet sent
	keeps     []keepCall    // politeness state not yet sent
	sending   bool          // a batch is on its way
	scheduled bool          // send runs at the end of this turn
	lost      bool          // Redis is unreachable: said once until it is back

	Stats Stats
}

// Stats count what this process did for the fleet.
type Stats struct {
	Found     int // links sent to the fleet's seen set
	New       int // of those, never seen by any process
	Taken     int // URLs taken from shard queues
	Settled   int // URLs settled
	Fenced    int // pages done whose shard was lost before they were settled: fetched again elsewhere
	Acquired  int // leases taken
	LostLease int // leases lost (expired, or taken by another process)
}

type keepCall struct {
	shard       int
	hash, field string
	value       string
}

// New prepares a fleet; Join connects it.
func New(opts Options) (*Fleet, error) {
	if opts.CrawlID == "" || strings.ContainsAny(opts.CrawlID, " \t\r\n:{}") {
		return nil, errors.New("--crawl_id must be a name without spaces, colons or braces")
	}
	if opts.Shards <= 0 {
		opts.Shards = 16
	}
	if opts.Lease <= 0 {
		opts.Lease = 3 * time.Second
	}
	if opts.Owner == "" {
		host, _ := os.Hostname()
		opts.Owner = fmt.Sprintf("%s:%d:%04x", host, os.Getpid(), rand.IntN(1<<16))
	}
	if opts.Notice == nil {
		opts.Notice = func(string) {}
	}
	return &Fleet{opts: opts, prefix: "loopkit:" + opts.CrawlID + ":", held: map[int]*lease{}, settled: map[int][]any{}}, nil
}

// Join connects to Redis on l and joins the crawl: creates it with this
// process's settings, or checks they are the crawl's. It fails if Redis
// cannot be reached, or the crawl has other settings. Run it from a task
// on the crawl's loop, before the crawl.
func (f *Fleet) Join(y task.Yield, l *loop.Loop) error {
	f.loop = l
	client, err := resp.NewClient(l, f.opts.Redis, resp.Options{Scripts: scripts, OnConnEvent: f.connEvent})
	if err != nil {
		return fmt.Errorf("--redis: %w", err)
	}
	f.client = client
	if _, err := client.Do(y, "PING"); err != nil {
		client.Close()
		return fmt.Errorf("--redis %s: cannot reach Redis: %w", f.opts.Redis, err)
	}
	type stored struct {
		journal.Settings
		Shards int `json:"shards"`
	}
	mine, err := json.Marshal(stored{f.opts.Settings, f.opts.Shards})
	if err != nil {
		return err
	}
	key := f.prefix + "settings"
	created, err := client.Do(y, "SET", key, mine, "NX")
	if err != nil {
		return fmt.Errorf("--redis: %w", err)
	}
	if created.Kind == resp.KindNil { // the crawl exists: ours must match
		raw, err := resp.String(client.Do(y, "GET", key))
		if err != nil {
			return fmt.Errorf("--redis: reading crawl %q: %w", f.opts.CrawlID, err)
		}
		var theirs stored
		if err := json.Unmarshal([]byte(raw), &theirs); err != nil {
			return fmt.Errorf("--redis: crawl %q's settings: %w", f.opts.CrawlID, err)
		}
		if len(f.opts.Settings.Roots) == 0 { // joining with no roots: the crawl's
			f.opts.Settings.Roots = theirs.Roots
		}
		if diff := journal.Differences(theirs.Settings, f.opts.Settings); len(diff) > 0 {
			return fmt.Errorf("--crawl_id %s: the crawl was started with other settings (%s); give the same flags, or another --crawl_id",
				f.opts.CrawlID, strings.Join(diff, "; "))
		}
		f.opts.Shards = theirs.Shards
	}
	return nil
}

// Roots are the crawl's roots, as Join found them (or gave them).
func (f *Fleet) Roots() []string { return f.opts.Settings.Roots }

// Start is crawler.Shared's: the crawl begins on c.
func (f *Fleet) Start(c *crawler.Crawler) {
	f.c = c
	if f.opts.Window <= 0 {
		f.opts.Window = 2 * c.MaxTasks()
	}
	f.beat()
}

// shardOf is the shard of a URL's server. The hash is FNV-1a (hashString),
// the same in every process, so every process agrees on where a host belongs; a host's
// http and https are one server, and one shard.
func (f *Fleet) shardOf(rawURL string) int {
	u, err := url.Parse(rawURL)
	if err != nil {
		return 0
	}
	return int(hashString(u.Host) % uint32(f.opts.Shards))
}

// key is the name of one of a shard's keys: lease:3, q:3, ...
func (f *Fleet) key(name string, shard int) string {
	return fmt.Sprintf("%s%s:%d", f.prefix, name, shard)
}

// entry is a queued URL as the shard queues hold it.
func entry(u string, depth, redirects int32) string {
	return fmt.Sprintf("%d %d %s", depth, redirects, u)
}

func parseEntry(e string) (u string, depth, redirects int32, ok bool) {
	var d, r int
	parts := strings.SplitN(e, " ", 3)
	if len(parts) != 3 {
		return "", 0, 0, false
	}
	if _, err := fmt.Sscan(parts[0], &d); err != nil {
		return "", 0, 0, false
	}
	if _, err := fmt.Sscan(parts[1], &r); err != nil {
		return "", 0, 0, false
	}
	return parts[2], int32(d), int32(r), true
}

// Found is crawler.Shared's: a link for the fleet's seen set and queues.
func (f *Fleet) Found(u string, depth, redirects int32) {
	f.found = append(f.found, f.shardOf(u), entry(u, depth, redirects), u)
	f.Stats.Found++
	f.schedule()
}

// Settled is crawler.Shared's: an offered URL is done (or dropped).
func (f *Fleet) Settled(u string, r *crawler.Record) {
	shard := f.shardOf(u)
	l := f.held[shard]
	if l == nil {
		f.Stats.Fenced++ // its shard was given up meanwhile: its next holder fetches it again
		return
	}
	e, ok := l.taken[u]
	if !ok {
		return
	}
	delete(l.taken, u)
	kind, detail := "", ""
	if r != nil {
		kind, detail = crawler.Tally(r)
	}
	f.settled[shard] = append(f.settled[shard], e, u, kind, detail)
	f.schedule()
	if len(l.taken) <= f.window()/2 {
		f.feed(shard, l) // keep the crawler fed between beats
	}
}

// Robots is crawler.Shared's: a host's robots.txt, kept with its shard.
func (f *Fleet) Robots(origin string, body []byte, until time.Time) {
	f.keep(f.shardOf(origin+"/"), "robots", origin, fmt.Sprintf("%d %s", until.UnixMilli(), encode(body)))
}

// Hold is crawler.Shared's: a server's Retry-After, kept with its shard.
func (f *Fleet) Hold(authority string, until time.Time) {
	f.keep(f.shardOf("http://"+authority+"/"), "hold", authority, fmt.Sprint(until.UnixMilli()))
}

func (f *Fleet) keep(shard int, hash, field, value string) {
	if f.held[shard] == nil {
		return // not ours any more: its next holder learns it again
	}
	f.keeps = append(f.keeps, keepCall{shard: shard, hash: hash, field: field, value: value})
	f.schedule()
}

// Finish is crawler.Shared's: the crawl is over here. What is not sent
// is sent, and the shards are given back, what was taken and not settled
// going back to their queues for another process.
func (f *Fleet) Finish(y task.Yield) error {
	f.finished = true
	if f.tick != nil {
		f.tick.Cancel()
	}
	for tries := 0; f.pending() && tries < 50; tries++ {
		f.send()
		if err := task.Sleep(y, 20*time.Millisecond); err != nil {
			break
		}
	}
	if f.pending() {
		f.opts.Notice("fleet: Redis did not take everything before the end; what was not settled will be fetched again by another process")
	}
	for shard, l := range f.held {
		release.Send(f.client, []string{f.key("lease", shard), f.key("q", shard), f.key("p", shard), f.prefix + "tally"}, f.opts.Owner, l.token)
	}
	f.client.Do(y, "ZREM", f.prefix+"procs", f.opts.Owner)
	f.held = map[int]*lease{}
	return nil
}

// MaySend is crawler.Shared's.
func (f *Fleet) MaySend(origin string) bool { return true }

// Close closes the connection to Redis.
func (f *Fleet) Close() {
	if f.client != nil {
		f.client.Close()
	}
}

// Tallies are the crawl's counts kept in Redis, over every process: the
// records by kind, and duplicates.
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

func (f *Fleet) connEvent(ev resp.ConnEvent) {
	switch {
	case !ev.Up && !f.lost:
		f.lost = true
		f.opts.Notice(fmt.Sprintf("fleet: Redis lost (%v): retrying; this process's shards pause when their leases run out", ev.Err))
	case ev.Up && f.lost:
		f.lost = false
		f.opts.Notice("fleet: Redis is back")
	}
}
