package urlnorm

import "testing"

// FuzzNormalize checks the two promises every normalizer must keep: it
// never panics, and normalizing twice changes nothing.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"HTTP://www.Example.COM:80/a/./b/../c/%7euser?q=%3a#frag",
		"http://[::1]:8080/%2e%2E/x?%zz",
		"https://bücher.de./ü/../a b?c=d e#f",
		"http://example.com/a%2Fb/..",
		"mailto:x@y",
		"A000://0..", // found by fuzzing: two trailing dots
		"A://::",     // found by fuzzing: a colon in an unbracketed host
		"A:/.//0",    // found by fuzzing: a path that would become a host
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		once, err := Normalize(in)
		if err != nil {
			return
		}
		twice, err := Normalize(once)
		if err != nil {
			t.Fatalf("Normalize(%q) = %q, which does not parse: %v", in, once, err)
		}
		if twice != once {
			t.Fatalf("not idempotent: %q → %q → %q", in, once, twice)
		}
	})
}
