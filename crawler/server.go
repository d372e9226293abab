package crawler

import (
	"net/url"
	"time"
)

// server is the unit of politeness: the machine behind one or more
// origins. Its pace (AIMD concurrency and spacing), its requests in
// flight and the time of its next start are shared by its origins, which
// keep their own queues and robots.txt.
//
// It is keyed by the URL's authority, host and port, with the scheme's
// default port left out, as normalized URLs have it: http://example.com
// and https://example.com are one server, and so are http://h:8080 and
// https://h:8080, one port that speaks both; example.com:8080 is another,
// as urlnorm's Scope has it. So a site moving to https (a redirect on
// every page) is not crawled twice as hard while both are in the queues,
// and a Retry-After or a Crawl-delay heard on one scheme holds back the
// other. Scrapy keys its slots by host name alone; a crawler that wanted
// to be politer still would key by IP address, since one machine often
// serves many names.
type server struct {
	hosts     []*host // its origins
	inFlight  int
	pace      pace
	nextStart time.Duration // loop time before which no request may start
}

// authority is what a server is keyed by: the host and port of u, which
// urlnorm has written without the scheme's default port.
func authority(u *url.URL) string { return u.Host }

// server returns the server of authority, creating it if it is new.
func (f *frontier) server(authority string) *server {
	s := f.servers[authority]
	if s == nil {
		s = &server{pace: f.newPace()}
		f.servers[authority] = s
	}
	return s
}

// placeServer puts each of s's hosts where it belongs, in the ready heap
// or out: whether one may go depends on what the server has in flight.
func (f *frontier) placeServer(s *server) {
	for _, h := range s.hosts {
		f.place(h)
	}
}

// holdUntil moves the next start of h's server to t at the earliest:
// nothing not yet sent to it leaves before then (Retry-After,
// Crawl-delay), whichever of its origins it is for.
func (f *frontier) holdUntil(h *host, t time.Duration) {
	if t > h.server.nextStart {
		h.server.nextStart = t
		f.changed(h)
	}
}
