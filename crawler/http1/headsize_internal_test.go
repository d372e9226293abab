package http1

import "testing"

// headSize is exactly what appendHead writes, so that a connection's
// request buffer is made once, at the right size. Checked by hand: one
// byte short makes appendHead grow it, and this fails.
func TestHeadSizeIsWhatAppendHeadWrites(t *testing.T) {
	fields := Header{{"User-Agent", "loopkit/0.1"}, {"Accept", "*/*"}}
	for _, c := range []struct {
		method string
		url    string
		more   Header
	}{
		{"GET", "http://127.0.0.1:8080/delay?ms=0", nil},
		{"HEAD", "https://example.com/", Header{{"X-A", "1"}, {"X-Longer-Name", "a value"}}},
		{"GET", "http://example.com", nil},
	} {
		target, err := ParseTarget(c.url)
		if err != nil {
			t.Fatal(err)
		}
		n := headSize(c.method, target, fields, c.more)
		buf := make([]byte, 0, n)
		out := appendHead(buf, c.method, target, fields, c.more)
		if len(out) != n || cap(out) != n {
			t.Errorf("%s %s: headSize %d, appendHead wrote %d (cap %d)", c.method, c.url, n, len(out), cap(out))
		}
	}
}
