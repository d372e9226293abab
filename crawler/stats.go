package crawler

// Stats are the crawl's running counts, for the progress line and the report.
type Stats struct {
	Done             int  // records made
	Errors           int  // records with an exception
	Retries          int  // attempts after the first
	InFlight         int  // requests on the wire now
	Todo             int  // taken from the queue but left unfetched
	RobotsFetches    int  // robots.txt requests (not pages: no records)
	RobotsDisallowed int  // URLs skipped because robots.txt disallows them
	Interrupted      bool // Interrupt was called
}

// Stats returns the current counts; Queued is read from the queue.
func (c *Crawler) Stats() (s Stats, queued int) { return c.stats, c.q.Len() }
