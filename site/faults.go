package site

import (
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// The instrument endpoints misbehave on purpose, each in one way a crawler must survive.
// None is linked from the site: tests and benchmarks request them by name. Every host
// of the site has them, so that a test of politeness per host can slow down or fail
// each host on its own; the endpoints that count their requests (/flaky, /limited,
// /drop) count them per host. Those that wait also watch s.done, so that Close never
// waits on them.

func isInstrument(path string) bool {
	switch path {
	case "/delay", "/hang", "/flaky", "/limited", "/dribble", "/drop", "/reset-mid-body", "/stats", "/reset":
		return true
	}
	return false
}

// serveInstrument answers the instrument endpoints and reports whether path was one.
func (s *Site) serveInstrument(h int, w http.ResponseWriter, r *http.Request) bool {
	switch r.URL.Path {
	case "/delay":
		s.serveDelay(w, r)
	case "/hang":
		s.serveHang(w, r)
	case "/flaky":
		s.serveFlaky(h, w, r)
	case "/limited":
		s.serveLimited(h, w, r)
	case "/dribble":
		s.serveDribble(w, r)
	case "/drop":
		s.serveDrop(h, w, r)
	case "/reset-mid-body":
		s.serveResetMidBody(w, r)
	default:
		return false
	}
	return true
}

// /delay?ms=N sleeps N milliseconds, then answers 200 "ok": the slow server of the
// in-flight experiments (60 requests × 200 ms).
func (s *Site) serveDelay(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	ms, err := intParam(q, "ms", 0, 0, 600_000)
	if err != nil {
		badRequest(w, err.Error())
		return
	}
	if !s.sleep(r, time.Duration(ms)*time.Millisecond) {
		return
	}
	respond(w, http.StatusOK, ctText, okBody)
}

// /hang accepts the request and never answers: the client's read timeout must fire.
func (s *Site) serveHang(_ http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done(): // the client gave up
	case <-s.done:
		panic(http.ErrAbortHandler) // Close: drop the connection, still without an answer
	}
}

// /flaky?id=X&fail=N answers 503 to the first N requests for id X, then 200.
func (s *Site) serveFlaky(h int, w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id, fail, ok := idAndCount(w, q, "fail")
	if !ok {
		return
	}
	if s.faults.next(h, "flaky", id) < fail {
		respond(w, http.StatusServiceUnavailable, ctText, unavailableMsg)
		return
	}
	respond(w, http.StatusOK, ctHTML, recoveredPage)
}

// /limited?id=X&n=N&after=S answers 429 with "Retry-After: S" to the first N requests
// for id X, then 200. form=date sends the same delay as an HTTP-date (rounded up to the
// next second, so that honouring it never waits less than S); form=invalid sends a value
// that a client must ignore.
func (s *Site) serveLimited(h int, w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id, n, ok := idAndCount(w, q, "n")
	if !ok {
		return
	}
	after, err := intParam(q, "after", 1, 0, 86_400)
	if err != nil {
		badRequest(w, err.Error())
		return
	}
	var retryAfter string
	switch q.Get("form") {
	case "", "seconds":
		retryAfter = strconv.Itoa(after)
	case "date":
		at := time.Now().Add(time.Duration(after) * time.Second).Truncate(time.Second).Add(time.Second)
		retryAfter = at.UTC().Format(http.TimeFormat)
	case "invalid":
		retryAfter = "soon"
	default:
		badRequest(w, "form must be seconds, date or invalid")
		return
	}
	if s.faults.next(h, "limited", id) < n {
		w.Header().Set("Retry-After", retryAfter)
		respond(w, http.StatusTooManyRequests, ctText, tooManyMsg)
		return
	}
	respond(w, http.StatusOK, ctHTML, recoveredPage)
}

// /dribble?n=N&every=D sends a body of N bytes one byte at a time, one every D: each
// read is quick, the whole is slow. A read timeout (between chunks) never fires; only a
// total deadline stops it.
func (s *Site) serveDribble(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	n, err := intParam(q, "n", 10, 0, 1<<20)
	if err != nil {
		badRequest(w, err.Error())
		return
	}
	every := 100 * time.Millisecond
	if v := q.Get("every"); v != "" {
		if every, err = time.ParseDuration(v); err != nil || every < 0 || every > time.Minute {
			badRequest(w, "every must be a duration between 0 and 1m, such as 100ms")
			return
		}
	}
	w.Header()["Content-Type"] = ctText
	w.Header().Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if rc.Flush() != nil {
		return
	}
	for range n {
		if !s.sleep(r, every) {
			return
		}
		if _, err := w.Write(dot); err != nil || rc.Flush() != nil {
			return // the client left
		}
	}
}

var dot = []byte(".")

// sleep waits d, and reports false if the client left first. If the site closes first,
// it aborts the handler: the connection is dropped without an answer.
func (s *Site) sleep(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-s.done:
		panic(http.ErrAbortHandler)
	}
}

var recoveredPage = []byte("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>Recovered | Book shop</title></head>\n" +
	"<body>\n<h1>Back in service</h1>\n<p>This answer came after the failures you asked for.</p>\n</body>\n</html>\n")

// tallies counts requests per (host, endpoint, id), so that each test or benchmark
// picks its own id and its own failure budget, on each host.
type tallies struct {
	mu sync.Mutex
	n  map[string]int
}

// maxTallies bounds the table; past it, ids are forgotten all at once (as by Reset).
const maxTallies = 1 << 16

// next returns how many requests came for (host, endpoint, id) before this one.
func (t *tallies) next(host int, endpoint, id string) int {
	key := strconv.Itoa(host) + "\x00" + endpoint + "\x00" + id
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == nil || (len(t.n) >= maxTallies && t.n[key] == 0) {
		t.n = make(map[string]int)
	}
	seen := t.n[key]
	t.n[key] = seen + 1
	return seen
}

func (t *tallies) reset() {
	t.mu.Lock()
	t.n = nil
	t.mu.Unlock()
}

// idAndCount reads the id parameter (required) and a count (default 1), or answers 400.
func idAndCount(w http.ResponseWriter, q url.Values, count string) (id string, n int, ok bool) {
	id = q.Get("id")
	if id == "" {
		badRequest(w, "id is required")
		return "", 0, false
	}
	n, err := intParam(q, count, 1, 0, 1_000_000)
	if err != nil {
		badRequest(w, err.Error())
		return "", 0, false
	}
	return id, n, true
}

// intParam reads an integer parameter in [lo, hi], or def when it is absent.
func intParam(q url.Values, name string, def, lo, hi int) (int, error) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, &paramError{name, lo, hi}
	}
	return n, nil
}

type paramError struct {
	name   string
	lo, hi int
}

func (e *paramError) Error() string {
	return e.name + " must be a whole number between " + strconv.Itoa(e.lo) + " and " + strconv.Itoa(e.hi)
}
