// Package timeline draws requests on a time axis, one lane per connection,
// as an SVG picture: what a crawl or a benchmark did, and when. Above the
// connections, a lane per event loop says when the loop was busy, when
// it slept and what woke it, and a lane per host shows the requests in
// flight to it: its ramp-up.
//
// crawler/timeline sits beside the crawler and uses only crawler/http1's
// Trace (which connection carried a request, and when each phase ended)
// and the loop's trace (loop.Iteration). It is presentation, not
// measurement: cmd/crawl's --timeline and the tutorial's pictures feed it
// what the client and the loop recorded.
//
// Each request is a bar split into its phases: dns, connect, tls (when
// there is TLS), write, wait (for the first byte) and read. A robots.txt
// fetch is outlined, a retry is outlined in red, a request that failed
// ends in a red mark, and the time a request spent waiting its turn (for
// its host, in a crawl; for a semaphore, in the tutorial's pictures) while
// its connection sat idle is a dashed line before its bar.
package timeline

import (
	"time"

	"loopkit/crawler/http1"
)

// Bar is one request.
type Bar struct {
	Lane   uint64 // the connection that carried it (http1.Trace.Conn); 0: none
	Loop   int    // the loop whose client made it: connection numbers are per client
	Host   string // the server it went to, for the host's ramp; "": none drawn
	Label  string // a short name, drawn in the bar when it fits
	Detail string // the tooltip: URL, status or error, try
	Queued time.Duration
	Start  time.Duration
	Phases []Phase // consecutive, from Start; the last one ends the bar
	Robots bool    // a robots.txt fetch
	Retry  bool    // not the first attempt
	Failed bool    // no response came, or the response was an error
}

// End is when the bar ends.
func (b *Bar) End() time.Duration {
	if len(b.Phases) == 0 {
		return b.Start
	}
	return b.Phases[len(b.Phases)-1].End
}

// Phase is a part of a request, up to End (a loop time).
type Phase struct {
	Name string // dns, connect, tls, write, wait, read
	End  time.Duration
}

// PhaseNames are the phases in the order a request goes through them.
var PhaseNames = []string{"dns", "connect", "tls", "write", "wait", "read"}

// Phases turns a Trace into its phases: the ones it reached, in order. A
// phase a request skipped (no dns or connect on a reused connection, no
// tls on plain HTTP) is left out; a failed request ends with the phase it
// was in when it failed. withTLS says the request was https.
func Phases(t http1.Trace, withTLS bool) []Phase {
	ends := []time.Duration{t.Timings.DNS, t.Timings.Connect, t.Timings.TLS,
		t.Timings.Written, t.Timings.FirstByte}
	var out []Phase
	last := time.Duration(0)
	for i, end := range ends {
		if end > 0 {
			out = append(out, Phase{Name: PhaseNames[i], End: t.Start + end})
			last = end
		}
	}
	if done := t.Timings.Done; done > last {
		// What followed the last phase reached: the read after the
		// first byte, or the phase the request was in when it ended.
		next := "read"
		if t.Timings.FirstByte == 0 {
			next = nextPhase(t.Timings, withTLS)
		}
		out = append(out, Phase{Name: next, End: t.Start + done})
	}
	return out
}

// nextPhase names the phase a request that never saw its first byte was
// in when it ended.
func nextPhase(t http1.Timings, withTLS bool) string {
	switch {
	case t.Written > 0:
		return "wait"
	case t.TLS > 0, t.Connect > 0 && !withTLS:
		return "write"
	case t.Connect > 0:
		return "tls"
	case t.DNS > 0:
		return "connect"
	}
	return "dns"
}
