package reactor

import (
	"runtime"
	"sync"

	"loopkit/bench/crawlrules"
	"loopkit/bench/workload"
	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/loop"
)

// CallbacksParseOff is Callbacks whose crawl extracts links off the loop:
// the crawler's parse pool (crawler/parsepool.go) in miniature. A page's
// body goes to one of GOMAXPROCS parse workers, its links come back with
// CallSoonThreadsafe, and the loop records them and sends more requests.
// Pages under inlineBelow bytes are parsed on the loop, as the crawler
// does: their trip would cost more than their parsing. Fetch jobs run as
// in Callbacks: there is nothing to parse.
func CallbacksParseOff(job workload.Job, m *workload.Meter) error {
	if job.Kind != workload.Crawl {
		return Callbacks(job, m)
	}
	l, err := newLoop(job)
	if err != nil {
		return err
	}
	defer l.Close()
	client := newClient(l, job)
	defer client.Close()
	probe(l, job, m)
	stopWorkers, err := crawlParseOff(l, client, job, m)
	if err != nil {
		return err
	}
	defer stopWorkers() // after Run: no page is out by then
	return l.Run()
}

// inlineBelow is the crawler's default Config.ParseInlineBelow.
const inlineBelow = 4 << 10

type parseJob struct {
	it   crawlrules.Item
	resp crawlrules.Response
}

// crawlParseOff starts the crawl and its parse workers; stopWorkers ends
// the workers once the loop has stopped.
func crawlParseOff(l *loop.Loop, client *http1.Client, job workload.Job, m *workload.Meter) (stopWorkers func(), err error) {
	f, err := crawlrules.New(job.URL)
	if err != nil {
		return nil, err
	}
	jobs := make(chan parseJob, job.C) // at most C pages are out at once: a send never blocks
	var workers sync.WaitGroup
	inFlight := 0 // fetching or parsing
	var pump func()
	settle := func() {
		if inFlight == 0 {
			m.SetURLs(f.Fetched())
			l.Stop()
		}
	}
	record := func(it crawlrules.Item, next []crawlrules.Item, ok bool, size int) {
		inFlight--
		f.Record(it, next)
		if ok {
			m.Received(size)
			m.OK()
		} else {
			m.Fail(it.URL + ": links could not be extracted")
		}
		pump()
		settle()
	}
	for range runtime.GOMAXPROCS(0) {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for j := range jobs {
				next, ok := f.Follow(j.it, j.resp) // Follow may run on any goroutine
				l.CallSoonThreadsafe(func() { record(j.it, next, ok, len(j.resp.Body)) })
			}
		}()
	}
	pump = func() {
		for inFlight < job.C {
			it, ok := f.Next()
			if !ok {
				break
			}
			inFlight++
			client.Do(http1.Request{URL: it.URL}).AddDoneCallback(func(fut *future.Future[*http1.Reply]) {
				reply, err := fut.Result()
				if err != nil {
					inFlight--
					f.Failed(it)
					m.Fail(it.URL + ": " + err.Error())
					pump()
					settle()
				} else {
					resp := crawlrules.Response{Status: reply.StatusCode, ContentType: reply.Header.Get("Content-Type"),
						Location: reply.Header.Get("Location"), Body: reply.Body}
					if len(resp.Body) < inlineBelow {
						next, ok := f.Follow(it, resp)
						record(it, next, ok, len(resp.Body))
					} else {
						jobs <- parseJob{it, resp} // still in flight until its links are back
					}
				}
			})
		}
	}
	pump()
	settle()
	return func() { close(jobs); workers.Wait() }, nil
}
