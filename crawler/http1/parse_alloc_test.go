package http1_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"loopkit/crawler/http1"
)

// A typical response costs the parser three allocations, whatever its
// size: one string for every name and value of the head, the Response
// with its fields' array, and the body. Checked by hand: a Header of its
// own, apart from the Response, makes it 4.
func TestParsingAResponseAllocatesThree(t *testing.T) {
	in := []byte(typicalHead + "Content-Length: " + strconv.Itoa(len(benchPage)) + "\r\n\r\n" + benchPage)
	p := http1.NewParser("GET", http1.Limits{})
	allocs := testing.AllocsPerRun(100, func() {
		p.Reset("GET")
		if _, err := p.Feed(in); err != nil || !p.Done() {
			t.Fatalf("done %v, %v", p.Done(), err)
		}
	})
	if allocs != 3 {
		t.Fatalf("%v allocations per response, want 3", allocs)
	}
}

// Heads of every size keep every field, in order: the Response and its
// fields come in several sizes of one allocation, and past the largest a
// slice of their own.
func TestHeadsOfEverySizeKeepTheirFields(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 8, 9, 15, 16, 17, 40} {
		var head strings.Builder
		head.WriteString("HTTP/1.1 200 OK\r\n")
		for i := range n {
			fmt.Fprintf(&head, "X-F%d: v%d\r\n", i, i)
		}
		head.WriteString("Content-Length: 0\r\n\r\n")
		r := parsePieces("GET", http1.Limits{}, oneRead(head.String()))
		if r.err != nil {
			t.Fatalf("%d fields: %v", n, r.err)
		}
		h := r.resp.Header
		if len(h) != n+1 || h[n].Name != "Content-Length" {
			t.Fatalf("%d fields: got %d: %v", n, len(h), h)
		}
		for i := range n {
			if h[i].Name != fmt.Sprintf("X-F%d", i) || h[i].Value != fmt.Sprintf("v%d", i) {
				t.Fatalf("%d fields: field %d is %v", n, i, h[i])
			}
		}
		// Appending to a parsed Header never writes over another's.
		h2 := append(h, http1.Field{Name: "Extra", Value: "x"})
		if len(h2) != n+2 || r.resp.StatusCode != 200 {
			t.Fatalf("%d fields: append went wrong", n)
		}
	}
}
