package main

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/timeline"
)

// startTimeline, with --timeline FILE.svg, returns what draws the crawl
// once it is over: a lane per loop (its turns, which newLoops had each
// loop record), a lane per host (its requests in flight: its ramp-up)
// and a lane per connection, from every request the crawler reported
// (Config.OnAttempt, which newLoops set). Without the flag it does
// nothing, and the crawler traces nothing.
func startTimeline(o *options, notice func(string, ...any)) (finish func()) {
	in := o.instruments
	if o.timeline == "" || in == nil {
		return func() {}
	}
	return func() {
		if len(in.bars) == 0 {
			notice("--timeline: no request was made, nothing to draw")
			return
		}
		section := timeline.Section{Bars: in.bars}
		for _, r := range in.loops {
			section.Loops = append(section.Loops, r.lane)
		}
		chart := timeline.Chart{Title: fmt.Sprintf("crawl %s", strings.Join(o.cfg.Roots, " ")),
			Sections: []timeline.Section{section}}
		f, err := os.Create(o.timeline)
		if err == nil {
			err = chart.WriteSVG(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			notice("--timeline: %v", err)
			return
		}
		notice("timeline of %d requests and %s drawn in %s", len(in.bars), plural(len(in.loops), "loop"), o.timeline)
	}
}

// barOf turns one attempt into one bar, its times moved from its loop's
// clock onto the timeline's by offset.
func barOf(a *crawler.Attempt, offset time.Duration) timeline.Bar {
	label, host := a.URL, ""
	if u, err := url.Parse(a.URL); err == nil {
		label, host = u.RequestURI(), u.Host
	}
	outcome := a.Err
	if outcome == "" {
		outcome = fmt.Sprint("status ", a.Status)
	}
	phases := timeline.Phases(a.Trace, strings.HasPrefix(a.URL, "https:"))
	for i := range phases {
		phases[i].End += offset
	}
	return timeline.Bar{
		Lane:   a.Trace.Conn,
		Loop:   a.Loop,
		Host:   host,
		Label:  label,
		Detail: fmt.Sprintf("%s\ntry %d, loop %d, connection %d: %s", a.URL, a.Try, a.Loop, a.Trace.Conn, outcome),
		Queued: a.Queued + offset,
		Start:  a.Trace.Start + offset,
		Phases: phases,
		Robots: a.Robots,
		Retry:  a.Try > 1,
		Failed: a.Err != "" || a.Status >= 400 && !a.Robots,
	}
}
