package main

import (
	"fmt"
	"net/url"
	"os"
	"strings"

	"loopkit/crawler"
	"loopkit/crawler/timeline"
)

// startTimeline, with --timeline FILE.svg, has the crawler report every
// request it makes (Config.OnAttempt) and returns what draws them, one lane
// per connection, once the crawl is over. Without the flag it does
// nothing, and the crawler traces nothing.
func startTimeline(o *options, notice func(string, ...any)) (finish func()) {
	if o.timeline == "" {
		return func() {}
	}
	var bars []timeline.Bar
	o.cfg.OnAttempt = func(a *crawler.Attempt) { bars = append(bars, barOf(a)) }
	return func() {
		if len(bars) == 0 {
			notice("--timeline: no request was made, nothing to draw")
			return
		}
		f, err := os.Create(o.timeline)
		if err == nil {
			title := fmt.Sprintf("crawl %s", strings.Join(o.cfg.Roots, " "))
			err = timeline.WriteSVG(f, title, bars)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			notice("--timeline: %v", err)
			return
		}
		notice("timeline of %d requests drawn in %s", len(bars), o.timeline)
	}
}

// barOf turns one attempt into one bar.
func barOf(a *crawler.Attempt) timeline.Bar {
	label := a.URL
	if u, err := url.Parse(a.URL); err == nil {
		label = u.RequestURI()
	}
	outcome := a.Err
	if outcome == "" {
		outcome = fmt.Sprint("status ", a.Status)
	}
	return timeline.Bar{
		Lane:   a.Trace.Conn,
		Label:  label,
		Detail: fmt.Sprintf("%s\ntry %d, connection %d: %s", a.URL, a.Try, a.Trace.Conn, outcome),
		Queued: a.Queued,
		Start:  a.Trace.Start,
		Phases: timeline.Phases(a.Trace, strings.HasPrefix(a.URL, "https:")),
		Robots: a.Robots,
		Retry:  a.Try > 1,
		Failed: a.Err != "" || a.Status >= 400 && !a.Robots,
	}
}
