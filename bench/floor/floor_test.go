package floor

import (
	"strings"
	"testing"
)

func TestTheRequestIsWrittenByHandOnce(t *testing.T) {
	w, err := newWire("http://127.0.0.1:8080/delay?ms=0")
	if err != nil {
		t.Fatal(err)
	}
	if w.addr != "127.0.0.1:8080" || string(w.request) != "GET /delay?ms=0 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n" {
		t.Fatalf("%q %q", w.addr, w.request)
	}
	if _, err := newWire("https://127.0.0.1:8080/"); err == nil {
		t.Error("https accepted")
	}
}

func TestFrameFindsTheEndOfAResponse(t *testing.T) {
	const resp = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\ncontent-length: 3\r\n\r\nok\n"
	for cut := 0; cut < len(resp); cut++ { // split anywhere: not yet, or the whole length
		status, length, ok, err := frame([]byte(resp[:cut]))
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if ok && (status != 200 || length != len(resp)) {
			t.Fatalf("cut at %d: status %d, length %d", cut, status, length)
		}
		if ok != (cut >= strings.Index(resp, "\r\n\r\n")+4) {
			t.Fatalf("cut at %d: ok=%v", cut, ok)
		}
	}
	status, length, ok, err := frame([]byte(resp + "HTTP/1.1 404"))
	if !ok || err != nil || status != 200 || length != len(resp) {
		t.Errorf("with the next response behind it: %d %d %v %v", status, length, ok, err)
	}
	for _, bad := range []string{
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
		"HTTP/1.1 2x0 OK\r\nContent-Length: 1\r\n\r\n",
		"SSH-2.0-OpenSSH\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
	} {
		if _, _, _, err := frame([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
