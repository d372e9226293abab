package site

import (
	"net/http"
	"strconv"
	"sync"
)

// Content-Type values, shared by every response that uses them. Assigning a shared
// slice into the header map saves an allocation per request; net/http only reads it.
var (
	ctHTML = []string{"text/html; charset=utf-8"}
	ctText = []string{"text/plain; charset=utf-8"}
	ctJSON = []string{"application/json"}
)

// Pages are rendered into pooled buffers, so that serving a page allocates nothing for
// its body however many pages are served. The pool holds pointers: putting a bare slice
// in an interface would allocate, the very thing the pool is for.
var bufferPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// respondRendered appends a page to a pooled buffer with render, then sends it.
func respondRendered(w http.ResponseWriter, contentType []string, render func([]byte) []byte) {
	bp := bufferPool.Get().(*[]byte)
	*bp = render((*bp)[:0])
	respond(w, http.StatusOK, contentType, *bp)
	if cap(*bp) <= 64<<10 { // let the odd huge page go rather than pin its memory
		bufferPool.Put(bp)
	}
}

// respond writes a complete response with an explicit Content-Length, so that keep-alive
// connections never need chunked encoding and a client can tell a cut body from a whole.
func respond(w http.ResponseWriter, status int, contentType []string, body []byte) {
	h := w.Header()
	h["Content-Type"] = contentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body) // an error here means the client left; there is no one to tell
}

var (
	notFoundBody   = []byte("404 page not found\n")
	okBody         = []byte("ok\n")
	badMethodBody  = []byte("405 method not allowed\n")
	unavailableMsg = []byte("503 service unavailable: try again\n")
	tooManyMsg     = []byte("429 too many requests: slow down\n")
)

func notFound(w http.ResponseWriter) { respond(w, http.StatusNotFound, ctText, notFoundBody) }

func badRequest(w http.ResponseWriter, msg string) {
	respond(w, http.StatusBadRequest, ctText, []byte("400 bad request: "+msg+"\n"))
}

func methodNotAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	respond(w, http.StatusMethodNotAllowed, ctText, badMethodBody)
}
