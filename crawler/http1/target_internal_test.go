package http1

import "testing"

// The fast path may only take the URLs on which it agrees with the
// general one, exactly: for every input it accepts, url.Parse and the
// rebuilding give the same Target, without an error. Checked by hand:
// letting plainHost accept upper case fails on the seed "http://A/".
func FuzzParseTarget(f *testing.F) {
	for _, seed := range []string{
		"http://example.com", "http://example.com/", "https://example.com:443/a", "https://example.com:80/",
		"http://127.0.0.1:8080/delay?ms=0", "http://a:0080/", "http://a:/x", "http://a:65536/", "http://A/",
		"http://a?q", "http://a/?", "http://a/p?", "http://a/b#f", "http://a#f", "http://u@a/", "http://[::1]/",
		"http://a/%41", "http://a/?q=%zz", "http://a/a b", "http://a/ü", "http://a//x", "http://a/b;c=d,e@f:g",
		"http://a/?q=a+b&c=d/e?f", "http://a/~x/-y_z.", "http://xn--bcher-kva.example/", "http://a/b\x00",
		"http://a/\"", "HTTP://a/", "http:/a", "http://a.b-c.d:1/", "http://a/'!()*",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		fast, ok := sliceTarget(raw)
		if !ok {
			return
		}
		slow, err := parseTarget(raw)
		if err != nil {
			t.Fatalf("%q: the fast path took a URL the general one refuses: %v", raw, err)
		}
		if fast != slow {
			t.Fatalf("%q:\nfast    %+v\ngeneral %+v", raw, fast, slow)
		}
	})
}

// The fast path takes the URLs of a crawl of plain sites, and allocates
// nothing for them; the general path's allocations are what it saves.
// Checked by hand: building Host with a concatenation makes it 1.
func TestSliceTargetAllocatesNothing(t *testing.T) {
	for _, raw := range []string{"http://127.0.0.1:8080/delay?ms=0", "https://example.com/a/b.html", "http://example.com"} {
		if _, ok := sliceTarget(raw); !ok {
			t.Errorf("%q went the general way", raw)
		}
		if n := testing.AllocsPerRun(100, func() { _, _ = ParseTarget(raw) }); n != 0 {
			t.Errorf("%q: %v allocations", raw, n)
		}
	}
}
