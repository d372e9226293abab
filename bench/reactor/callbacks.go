package reactor

import (
	"loopkit/bench/frontier"
	"loopkit/bench/workload"
	"loopkit/crawler/http1"
	"loopkit/future"
)

// Callbacks runs job with crawler/http1's callback API alone.
func Callbacks(job workload.Job) (workload.Tally, error) {
	l, err := newLoop(job)
	if err != nil {
		return workload.Tally{}, err
	}
	defer l.Close()
	client := newClient(l, job)
	defer client.Close()
	var t workload.Tally
	if job.Kind == workload.Crawl {
		err = crawlCallbacks(l, client, job, &t)
	} else {
		fetchCallbacks(l, client, job, &t)
	}
	return t, err
}

// runner is what the variants need of a loop: Run until Stop.
type runner interface {
	Run() error
	Stop()
}

// fetchCallbacks keeps job.Limit() requests in flight: it starts that
// many, and each completion starts the next. An unbounded job starts all
// of them at once.
func fetchCallbacks(l runner, client *http1.Client, job workload.Job, t *workload.Tally) {
	started, finished := 0, 0
	var start func()
	start = func() {
		started++
		client.Do(http1.Request{URL: job.URL}).AddDoneCallback(func(f *future.Future[*http1.Reply]) {
			finished++
			reply, err := f.Result()
			count(t, reply, err)
			switch {
			case started < job.N:
				start()
			case finished == job.N:
				l.Stop()
			}
		})
	}
	for range min(job.Limit(), job.N) {
		start()
	}
	if err := l.Run(); err != nil {
		t.Fail(err.Error())
	}
}

// crawlCallbacks crawls with up to job.C fetches in flight. Each
// completion feeds the frontier and tops the window up again; the crawl
// is over when nothing is in flight and nothing is queued.
func crawlCallbacks(l runner, client *http1.Client, job workload.Job, t *workload.Tally) error {
	f, err := frontier.New(job.URL)
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
				visit(f, it, fut, t)
				pump()
				if inFlight == 0 {
					l.Stop()
				}
			})
		}
	}
	pump()
	if err := l.Run(); err != nil {
		return err
	}
	t.URLs = f.Fetched()
	return nil
}

// visit hands a crawl's reply to the frontier and tallies it: a response
// of any status is OK, no response at all a failure.
func visit(f *frontier.Frontier, it frontier.Item, fut *future.Future[*http1.Reply], t *workload.Tally) {
	reply, err := fut.Result()
	if err != nil {
		f.Failed(it)
		t.Fail(it.URL + ": " + err.Error())
		return
	}
	resp := frontier.Response{
		Status:      reply.StatusCode,
		ContentType: reply.Header.Get("Content-Type"),
		Location:    reply.Header.Get("Location"),
		Body:        reply.Body,
	}
	if !f.Visit(it, resp) {
		t.Fail(it.URL + ": links could not be extracted")
		return
	}
	t.OK++
}
