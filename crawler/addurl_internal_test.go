package crawler

import (
	"testing"

	"loopkit/loop"
)

// A host has one spelling everywhere: a Unicode name and its punycode
// are one host in the frontier (one queue, one pace, one robots.txt) and
// one URL in the seen set.
func TestUnicodeAndPunycodeAreOneHost(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := New(l, Config{Roots: []string{"http://bücher.example/"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"http://bücher.example/a", "http://BÜCHER.example/a", "http://xn--bcher-kva.example/a"} {
		u, err := ParseRoot(raw)
		if err != nil {
			t.Fatal(err)
		}
		c.addRoot(u)
	}
	if c.front.Hosts() != 1 || c.front.Queued() != 1 {
		t.Fatalf("%d hosts, %d queued; want one of each", c.front.Hosts(), c.front.Queued())
	}
	for origin := range c.hosts {
		if origin != "http://xn--bcher-kva.example" {
			t.Fatalf("host %q, want the punycode spelling", origin)
		}
	}
}
