package crawler

import (
	"net/url"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/task"
)

// The chapter's crawler lives in memory, in one process. What lets a
// crawl outlive its memory (long queues on disk), its process (a journal)
// or its machine (a fleet sharing it through Redis) plugs in at one seam,
// and the chapter's files never name it:
//
//   - one way in: every URL that becomes a loop's to do passes enter
//     (todo.go), whichever way it came;
//   - one way out: what the crawl does is told to its extensions, held in
//     one field, c.ext, as a loop tells its observer what it does;
//   - one question of company, asked at the top of add (addurl.go): is
//     this URL this loop's to fetch, or does it go to another loop, or to
//     the fleet (c.peers)?
//
// Scrapy's engine has the same shape: it knows persistence and
// distribution only through its scheduler.

// An extension hears what the crawl does, on the crawler's loop, as it
// happens. The journal's writer (persist.go), the fleet (shared.go) and
// the seen set, for its files on disk (seen.go), are extensions. The
// order of the calls is part of the contract, and the implementations
// rely on it:
//
//   - queued comes in the turn a URL is found, once it is known to be
//     placed: for this loop, as it enters, past its host's caps and before
//     it is screened (todo.go); for another loop or the fleet, before it is
//     handed over. So it comes before the URL's job can be handed out, let
//     alone end, and never for a URL a cap refuses. (One exception: a link
//     that waits for the seen set's disk is told as it starts to wait,
//     since its page may be done before the answer comes; seen.go.)
//   - sent comes each time a page's request goes on the wire, before the
//     page's recorded; robots.txt's requests are not told.
//   - A job's recorded, and the queued of every link its page led to, come
//     before its jobEnds; the frontier hears that the job is over only when
//     jobEnds has returned. An extension that waits there (the journal
//     waits for its write to reach the kernel) makes "over" mean "written".
//     One record comes later: a retry whose host was given up while it
//     waited is recorded as its job ends (endJob), after jobEnds. A stop
//     right then costs that URL a refetch, never its loss.
//   - On a resumed crawl, the replayed queue enters before the replayed
//     robots.txt is learnt, so that the rules screen what was queued
//     without them.
//   - finish comes once, after the last job is over; nothing comes after
//     it. abandon comes instead of a crawl that never ran.
type extension interface {
	started()                                                 // Crawl begins, before the roots are added
	queued(it frontier.Item)                                  // a URL found here, new to this loop, placed: to do
	sent(url string)                                          // a page's request went on the wire
	recorded(r *Record)                                       // a URL's record: its end
	dropped(url string)                                       // a URL that will never be fetched nor recorded here: over a cap, or refused by robots.txt
	robotsLearnt(origin string, body []byte, until time.Time) // a host's robots.txt fetched here (body nil: there is none)
	serverHeld(authority string, until time.Time)             // a server asked, with Retry-After, to be left alone until then
	jobEnds(y task.Yield)                                     // a job is about to be over: what it did is made to last
	finish(y task.Yield) error                                // the crawl is over: what is left is written, and let go
	abandon() error                                           // the crawl will never run: let go
}

// extensions are the crawl's, called in order: the journal's writer
// before the fleet, so that a page's line is written before the fleet
// hears it is settled; the seen set after them, so that its files go
// only once the crawl is over (assemble.go).
type extensions []extension

func (x extensions) started() {
	for _, e := range x {
		e.started()
	}
}

func (x extensions) queued(it frontier.Item) {
	for _, e := range x {
		e.queued(it)
	}
}

func (x extensions) sent(url string) {
	for _, e := range x {
		e.sent(url)
	}
}

func (x extensions) recorded(r *Record) {
	for _, e := range x {
		e.recorded(r)
	}
}

func (x extensions) dropped(url string) {
	for _, e := range x {
		e.dropped(url)
	}
}

func (x extensions) robotsLearnt(origin string, body []byte, until time.Time) {
	for _, e := range x {
		e.robotsLearnt(origin, body, until)
	}
}

func (x extensions) serverHeld(authority string, until time.Time) {
	for _, e := range x {
		e.serverHeld(authority, until)
	}
}

func (x extensions) jobEnds(y task.Yield) {
	for _, e := range x {
		e.jobEnds(y)
	}
}

func (x extensions) finish(y task.Yield) error {
	var first error
	for _, e := range x {
		if err := e.finish(y); first == nil {
			first = err
		}
	}
	return first
}

func (x extensions) abandon() error {
	var first error
	for _, e := range x {
		if err := e.abandon(); first == nil {
			first = err
		}
	}
	return first
}

// peers are whoever else works on the crawl. They answer the questions a
// loop with company has: which roots it adds, which URLs are its own to
// fetch, where the others go, and when the crawl is over. A Crawler on
// its own has no company (alone, below); a Group's loops are each other's
// peers (shard.go), and so are a fleet's processes (shared.go).
type peers interface {
	roots(all []*url.URL) []*url.URL       // the roots this loop adds
	owns(u *url.URL) bool                  // whether u is this loop's to fetch
	handOver(u *url.URL, it frontier.Item) // u goes to whoever's it is
	idle(nothing bool)                     // this loop has nothing left to do (true), or has work again (false)
	vetSends(h *frontier.Host) func() bool // asked before each request to h goes on the wire (nil: nothing to ask)
}

// alone is a Crawler with no company: every URL is its own, and the crawl
// is over as soon as it has nothing left to do.
type alone struct{ c *Crawler }

func (a alone) roots(all []*url.URL) []*url.URL       { return all }
func (a alone) owns(*url.URL) bool                    { return true }
func (a alone) handOver(u *url.URL, it frontier.Item) { a.c.enter(u, it, false) }

func (a alone) vetSends(*frontier.Host) func() bool { return nil }

func (a alone) idle(nothing bool) {
	if nothing {
		a.c.end()
	}
}

// Shared is a crawl shared with other processes, through a server they
// all reach (package crawler/fleet, on Redis): Config.Shared. Its methods
// are called on the crawler's loop; it calls the Crawler's Offer,
// KnowRobots, HoldServer, Drop and End (shared.go), on the loop too.
type Shared interface {
	// Start is called as Crawl starts, before the roots are found.
	Start(c *Crawler)
	// Found hears of each URL that passed this crawler's filters and that
	// it had not seen: a root, a link, a redirect's target. It is not
	// queued here; the fleet queues it where it belongs, and offers it to
	// the process whose it is to fetch.
	Found(url string, depth, redirects int32)
	// Settled hears that an offered URL reached its end: its record, or
	// nil if it was dropped unfetched (robots.txt disallowed it). A
	// record written to Config.Output is settled once its line is
	// written: a process killed between the two fetches the page again
	// rather than lose its line.
	Settled(url string, r *Record)
	// MaySend is asked just before each request to origin goes on the
	// wire: whether this process may still send to that host. A process
	// that lost the host to another says no, and the request ends unsent.
	MaySend(origin string) bool
	// Robots and Hold hear of politeness state the fleet keeps with the
	// host, for whichever process works it next.
	Robots(origin string, body []byte, until time.Time)
	Hold(authority string, until time.Time)
	// Finish is called as Crawl ends, in its task, when no job runs any
	// more: the fleet writes what it has and gives its hosts back. Its
	// error, if any, is Crawl's: why the fleet stopped (End) the crawl.
	Finish(y task.Yield) error
}
