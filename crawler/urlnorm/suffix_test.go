package urlnorm

import "testing"

// TestRegistrableDomain checks the Public Suffix List algorithm on the
// kinds of rule the list has. The answers agree with
// golang.org/x/net/publicsuffix.EffectiveTLDPlusOne.
func TestRegistrableDomain(t *testing.T) {
	tests := []struct{ name, want string }{
		{"example.com", "example.com"},
		{"www.example.com", "example.com"},
		{"a.b.example.com", "example.com"},
		{"news.bbc.co.uk", "bbc.co.uk"}, // a two-label suffix
		{"bbc.co.uk", "bbc.co.uk"},
		{"co.uk", "co.uk"}, // a suffix has no registrable domain
		{"uk", "uk"},
		{"alice.github.io", "alice.github.io"}, // a private suffix
		{"www.alice.github.io", "alice.github.io"},
		{"a.b.kawasaki.jp", "a.b.kawasaki.jp"},                   // wildcard "*.kawasaki.jp"
		{"city.kawasaki.jp", "city.kawasaki.jp"},                 // exception "!city.kawasaki.jp"
		{"a.city.kawasaki.jp", "city.kawasaki.jp"},               //
		{"foo.ck", "foo.ck"},                                     // wildcard "*.ck": foo.ck is a suffix
		{"a.foo.ck", "a.foo.ck"},                                 //
		{"a.www.ck", "www.ck"},                                   // exception "!www.ck"
		{"a.b.oci.customer-oci.com", "a.b.oci.customer-oci.com"}, // "*.oci.customer-oci.com" is longer than "*.customer-oci.com"
		{"www.example.xn--55qx5d.cn", "example.xn--55qx5d.cn"},   // the rule "公司.cn", in Punycode
		{"www.xn--55qx5d.cn", "www.xn--55qx5d.cn"},               //
		{"wiki.corp.internal", "corp.internal"},                  // not listed: the default rule "*"
		{"localhost", "localhost"},
		{"127.0.0.1", "127.0.0.1"}, // IP addresses are not names
		{"::1", "::1"},
		{"a..example.com", "a..example.com"}, // malformed: left alone
		{".example.com", ".example.com"},     //
		{"", ""},
	}
	for _, tt := range tests {
		if got := registrableDomain(tt.name); got != tt.want {
			t.Errorf("registrableDomain(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
