package crawler

import "maps"

// Stats are the crawl's running counts, for the progress line and the report.
type Stats struct {
	Done             int            // records made
	Fetched          int            // records with a response
	Errors           int            // records with an exception
	Retries          int            // attempts after the first
	SlowDowns        int            // times a host's pace was cut by pushback
	InFlight         int            // requests on the wire now
	Queued           int            // URLs waiting in their hosts' queues
	WaitingForHost   int            // of those, in hosts that may not send now
	Cancelled        int            // in flight when an interrupt cancelled them: to do
	RobotsFetches    int            // robots.txt requests (not pages: no records)
	RobotsDisallowed int            // URLs robots.txt kept us from
	Filtered         map[string]int // links not followed, by reason
	Interrupted      bool           // Interrupt was called
	ParsedOffLoop    int            // pages parsed by the parse workers, not on the loop
	ParseBacklogPeak int            // the most bytes of bodies that awaited parsing at once (a Group: on one loop)
}

// Stats returns the current counts.
func (c *Crawler) Stats() Stats {
	s := c.stats
	s.Filtered = maps.Clone(c.stats.Filtered)
	s.ParsedOffLoop, s.ParseBacklogPeak = c.parser.offLoop, c.parser.peak
	now := c.loop.Time()
	for _, h := range c.front.hosts {
		n := h.queue.len()
		s.Queued += n
		if !h.ready() || h.server.nextStart > now {
			s.WaitingForHost += n
		}
	}
	return s
}

// Add is s and t counted together: a Group's shards, say.
func (s Stats) Add(t Stats) Stats {
	s.Done += t.Done
	s.Fetched += t.Fetched
	s.Errors += t.Errors
	s.Retries += t.Retries
	s.SlowDowns += t.SlowDowns
	s.InFlight += t.InFlight
	s.Queued += t.Queued
	s.WaitingForHost += t.WaitingForHost
	s.Cancelled += t.Cancelled
	s.RobotsFetches += t.RobotsFetches
	s.RobotsDisallowed += t.RobotsDisallowed
	if s.Filtered == nil {
		s.Filtered = make(map[string]int)
	}
	for k, v := range t.Filtered {
		s.Filtered[k] += v
	}
	s.Interrupted = s.Interrupted || t.Interrupted
	s.ParsedOffLoop += t.ParsedOffLoop
	s.ParseBacklogPeak = max(s.ParseBacklogPeak, t.ParseBacklogPeak)
	return s
}
