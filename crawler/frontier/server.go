package frontier

import "time"

// server is the unit of politeness: the machine behind one or more
// origins. Its pace (AIMD concurrency and spacing), its requests in
// flight and the time of its next start are shared by its origins, which
// keep their own queues and gates.
//
// It is keyed by the URL's authority, host and port, with the scheme's
// default port left out, as normalized URLs have it: http://example.com
// and https://example.com are one server, and so are http://h:8080 and
// https://h:8080, one port that speaks both; example.com:8080 is another.
// So a site moving to https (a redirect on every page) is not crawled
// twice as hard while both are in the queues, and a Retry-After or a
// Crawl-delay heard on one scheme holds back the other. Scrapy keys its
// slots by host name alone; a crawler that wanted to be politer still
// would key by IP address, since one machine often serves many names.
type server struct {
	hosts     []*Host // its origins
	inFlight  int     // jobs handed out and not over
	unsent    int     // of those, not yet on the wire
	pace      pace
	nextStart time.Duration // loop time before which no request may start
	lastSent  time.Duration // loop time a request last went on the wire; -1: never
}

// server returns the server of authority, creating it if it is new.
func (f *Frontier) server(authority string) *server {
	s := f.servers[authority]
	if s == nil {
		s = &server{pace: newPace(f.opts.PerHost, f.opts.Delay), lastSent: -1}
		f.servers[authority] = s
	}
	return s
}

// Sent says j's request went on the wire at loop time now: the spacing to
// its server's next start counts from here. It may be said more than once
// (a request sent again on a fresh connection); the last one counts.
func (f *Frontier) Sent(j *Job, now time.Duration) {
	s := j.Host.server
	if j.over {
		return
	}
	if !j.sent {
		j.sent = true
		s.unsent--
	}
	s.lastSent = now
	s.nextStart = max(s.nextStart, now+f.gap(s))
	f.placeServer(s)
}

// HoldUntil moves the next start of h's server to t at the earliest:
// nothing not yet sent to it leaves before then (Retry-After,
// Crawl-delay), whichever of its origins it is for.
func (f *Frontier) HoldUntil(h *Host, t time.Duration) {
	if s := h.server; t > s.nextStart {
		s.nextStart = t
		f.placeServer(s)
	}
}

// SetDelay raises the spacing of h's server to d, if d is longer than
// what it has (a Crawl-delay longer than --delay). The new spacing counts
// from the last request sent: the robots.txt that said so, say.
func (f *Frontier) SetDelay(h *Host, d time.Duration) {
	s := h.server
	s.pace.setDelay(d)
	if s.lastSent >= 0 {
		f.HoldUntil(h, s.lastSent+s.pace.gap())
	}
}

// Gap is the spacing between request starts that h's server has now,
// without jitter.
func (f *Frontier) Gap(h *Host) time.Duration { return h.server.pace.gap() }

// InFlight is how many jobs h's server has handed out and not over, and
// Limit how many it may have now.
func (f *Frontier) InFlight(h *Host) int { return h.server.inFlight }
func (f *Frontier) Limit(h *Host) int    { return h.server.pace.limit }

// Succeeded says the server of j answered, and not with pushback.
func (f *Frontier) Succeeded(j *Job) {
	j.Host.server.pace.succeeded()
	f.placeServer(j.Host.server) // its limit may have grown
}

// PushedBack says the server of j pushed back (a 429, a 503): it is slowed
// down, once per congestion event, and nothing more is sent to it for a
// while — its new spacing, and at least a second, doubling with each of
// j's tries (refusalHold): the server's other pages wait as long as j's
// retry does. It reports whether this answer slowed the server down.
//
// A retry pushed back again does not slow the server down again: the
// server refused that page twice, whatever the pace, which says more
// about the page than about the pace. The server's other pages go on at
// the pace they had, after the hold.
func (f *Frontier) PushedBack(j *Job, now time.Duration) bool {
	s := j.Host.server
	slowed := false
	if j.Item.Tries == 0 {
		slowed = s.pace.pushedBack(j.epoch, now)
	} else {
		s.pace.refusedAgain()
	}
	f.HoldUntil(j.Host, now+max(s.pace.gap(), refusalHold(j.Item.Tries)))
	f.placeServer(s)
	return slowed
}

// NextStart is the loop time before which h's server may not start a
// request: its last start plus its spacing, or a hold (Retry-After,
// pushback). A time already past means now.
func (f *Frontier) NextStart(h *Host) time.Duration { return h.server.nextStart }

// Failed says j failed (a network error, a timeout, a 5xx other than 503).
// Too many failures among a server's last answers are pushback too: it
// reports whether this one slowed the server down.
func (f *Frontier) Failed(j *Job, now time.Duration) bool {
	s := j.Host.server
	if !s.pace.failed(now) {
		return false
	}
	f.HoldUntil(j.Host, now+s.pace.gap())
	f.placeServer(s)
	return true
}
