package reactor

import (
	"time"

	"loopkit/bench/crawlrules"
	"loopkit/bench/workload"
	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/loop"
)

// Callbacks runs job with crawler/http1's callback API alone.
func Callbacks(job workload.Job, m *workload.Meter) error {
	l, err := newLoop(job)
	if err != nil {
		return err
	}
	defer l.Close()
	client := newClient(l, job)
	defer client.Close()
	probe(l, job, m)
	switch {
	case job.Kind == workload.Crawl:
		if err := crawlCallbacks(l, client, job, m); err != nil {
			return err
		}
	case job.Paced():
		pacedCallbacks(l, client, job, m)
	default:
		fetchCallbacks(l, client, job, m)
	}
	return l.Run()
}

// fetchCallbacks keeps job.Limit() requests in flight: it starts that
// many, and each completion starts the next while the meter allows.
//
// One done callback serves every request: it is handed the future, so it
// needs to capture nothing that differs from one request to the next. A
// func literal inside start would be a new closure, an allocation, per
// request.
func fetchCallbacks(l *loop.Loop, client *http1.Client, job workload.Job, m *workload.Meter) {
	inFlight := 0
	req := http1.Request{URL: job.URL}
	var start func()
	done := func(f *future.Future[*http1.Reply]) {
		inFlight--
		reply, err := f.Result()
		m.Count(status(reply), err)
		release(reply)
		if m.Next() {
			start()
		} else if inFlight == 0 {
			l.Stop()
		}
	}
	start = func() {
		inFlight++
		client.Do(req).AddDoneCallback(done)
	}
	for inFlight < job.Limit() && m.Next() {
		start()
	}
	if inFlight == 0 {
		l.Stop()
	}
}

// pacedCallbacks sends each request when it falls due, from a loop timer;
// requests beyond the connection cap wait in the client's pool. Those
// still waiting when the job expires are cancelled and given up.
func pacedCallbacks(l *loop.Loop, client *http1.Client, job workload.Job, m *workload.Meter) {
	pacing := true
	pending := make(map[*future.Future[*http1.Reply]]bool)
	send := func(at time.Duration) {
		f := client.Do(http1.Request{URL: job.URL})
		pending[f] = true
		f.AddDoneCallback(func(f *future.Future[*http1.Reply]) {
			delete(pending, f)
			reply, err := f.Result()
			if f.Cancelled() {
				m.GiveUp(at)
			} else {
				m.CountAt(at, status(reply), err)
			}
			release(reply)
			if !pacing && len(pending) == 0 {
				l.Stop()
			}
		})
	}
	pace(l, m, send, func() {
		pacing = false
		if len(pending) == 0 {
			l.Stop()
		}
	})
	expire(l, m, func() {
		for f := range pending {
			f.Cancel()
		}
	})
}

// crawlCallbacks crawls with up to job.C fetches in flight. Each
// completion feeds the crawl and tops the window up again; the crawl
// is over when nothing is in flight and nothing is queued.
func crawlCallbacks(l *loop.Loop, client *http1.Client, job workload.Job, m *workload.Meter) error {
	f, err := crawlrules.New(job.URL)
	if err != nil {
		return err
	}
	inFlight := 0
	var pump func()
	pump = func() {
		for inFlight < job.C {
			it, ok := f.Next()
			if !ok {
				break
			}
			inFlight++
			client.Do(http1.Request{URL: it.URL}).AddDoneCallback(func(fut *future.Future[*http1.Reply]) {
				inFlight--
				reply, err := fut.Result()
				visit(f, it, reply, err, m)
				release(reply)
				pump()
				if inFlight == 0 {
					m.SetURLs(f.Fetched())
					l.Stop()
				}
			})
		}
	}
	pump()
	return nil
}

// visit hands a reply to the crawl and tallies it: a response
// of any status is a page, no response at all a failure.
func visit(f *crawlrules.Crawl, it crawlrules.Item, reply *http1.Reply, err error, m *workload.Meter) {
	if err != nil {
		f.Failed(it)
		m.Fail(it.URL + ": " + err.Error())
		return
	}
	resp := crawlrules.Response{
		Status:      reply.StatusCode,
		ContentType: reply.Header.Get("Content-Type"),
		Location:    reply.Header.Get("Location"),
		Body:        reply.Body,
	}
	if !f.Visit(it, resp) {
		m.Fail(it.URL + ": links could not be extracted")
		return
	}
	m.Received(len(reply.Body))
	m.OK()
}
