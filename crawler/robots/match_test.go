package robots

import "testing"

// TestAllowed walks through RFC 9309 §2.2.2 and §2.2.3, one rule at a
// time. Every robots.txt here has a single group for all robots.
func TestAllowed(t *testing.T) {
	tests := []struct {
		name  string
		rules string // the body of a "User-agent: *" group
		path  string
		want  bool
	}{
		// Prefix matching.
		{"no rules", "", "/anything", true},
		{"prefix", "Disallow: /tmp", "/tmp/a.html", false},
		{"prefix of a longer name", "Disallow: /tmp", "/tmp.html", false},
		{"exact", "Disallow: /tmp", "/tmp", false},
		{"trailing slash needs the slash", "Disallow: /tmp/", "/tmp", true},
		{"not a prefix", "Disallow: /tmp", "/other/tmp", true},
		{"case-sensitive", "Disallow: /Private", "/private", true},
		{"query is part of the path", "Disallow: /search?q=", "/search?q=go", false},
		{"query differs", "Disallow: /search?q=", "/search?lang=en", true},
		{"disallow everything", "Disallow: /", "/", false},
		{"empty disallow disallows nothing", "Disallow:", "/", true},
		{"empty allow changes nothing", "Disallow: /\nAllow:", "/a", false},
		{"empty path is /", "Disallow: /", "", false},

		// Longest match wins, whatever the order.
		{"longer allow wins", "Disallow: /a\nAllow: /a/b", "/a/b/c", true},
		{"longer allow wins, other order", "Allow: /a/b\nDisallow: /a", "/a/b/c", true},
		// A shorter rule after the best so far is skipped, not the end of the search.
		{"the longest comes after a shorter one", "Disallow: /a/b\nAllow: /a\nAllow: /a/b/c", "/a/b/c/d", true},
		{"longer disallow wins", "Allow: /a\nDisallow: /a/b", "/a/b/c", false},
		{"shorter rule elsewhere", "Allow: /a\nDisallow: /a/b", "/a/c", true},
		{"the classic", "Allow: /\nDisallow: /cgi-bin", "/cgi-bin/x", false},
		{"length counts wildcards", "Disallow: /*.php\nAllow: /a/", "/a/x.php", false},
		{"length counts the anchor", "Allow: /a$\nDisallow: /a", "/a", true},
		// The anchor's octet makes a Disallow longer than the Allow it
		// would otherwise tie with, and lose to.
		{"length counts the anchor of a disallow", "Allow: /a\nDisallow: /a$", "/a", false},
		{"length counts the anchor of a disallow, other order", "Disallow: /a$\nAllow: /a", "/a", false},
		// A leading star gets no "/" in front: the patterns tie, Allow wins.
		{"a leading star is not lengthened", "Allow: /x.gif\nDisallow: *x.gif", "/x.gif", true},

		// Ties.
		{"allow wins a tie", "Disallow: /page\nAllow: /page", "/page", true},
		{"allow wins a tie, other order", "Allow: /page\nDisallow: /page", "/page", true},
		{"allow wins a tie of equivalent spellings", "Disallow: /%7Efoo\nAllow: /~foo", "/~foo/x", true},
		{"duplicates are harmless", "Disallow: /x\nDisallow: /x", "/x", false},

		// The "*" wildcard.
		{"star in the middle", "Disallow: /*/private", "/users/private/x", false},
		{"star does not skip the start", "Disallow: /*/private", "/private", true},
		{"star matches nothing too", "Disallow: /a*b", "/ab", false},
		{"leading star", "Disallow: *.gif", "/img/x.gif", false},
		{"final star is redundant", "Disallow: /fish*", "/fish.html", false},
		{"many stars", "Disallow: /*a*b*c", "/xxaxxbxxc", false},
		{"many stars, wrong order", "Disallow: /*a*b*c", "/xxcxxbxxa", true},
		{"a middle part right after the star", "Disallow: /*a*b", "/ab", false},
		{"a part twice needs two places", "Disallow: /*ab*ab", "/xab", true},
		{"a part twice in two places", "Disallow: /*ab*ab", "/xab-ab", false},
		{"runs of stars are one", "Disallow: /a***b", "/a-b", false},
		{"star in the query", "Disallow: /*?sessionid=", "/page?sessionid=1", false},

		// The "$" anchor.
		{"anchor matches the end", "Disallow: /*.php$", "/index.php", false},
		{"anchor refuses more", "Disallow: /*.php$", "/index.php?x=1", true},
		{"anchor refuses a directory", "Disallow: /*.php$", "/index.php/", true},
		{"anchored exact path", "Disallow: /$", "/", false},
		{"anchored root only", "Disallow: /$", "/a", true},
		{"anchor after a star", "Disallow: /a/*$", "/a/anything", false},
		{"leftmost match is not the only one", "Disallow: /*ab$", "/ab-ab", false},
		{"a dollar elsewhere is literal", "Disallow: /a$b", "/a$b", false},
		{"a dollar elsewhere is not an anchor", "Disallow: /a$b", "/a", true},

		// Literal "*" and "$" are written escaped in rules (§2.2.3).
		{"escaped star matches a star", "Disallow: /file-%2A.html", "/file-*.html", false},
		{"escaped star is not a wildcard", "Disallow: /file-%2A.html", "/file-x.html", true},
		{"escaped dollar matches a dollar", "Disallow: /price-%24", "/price-$", false},

		// Percent-encoding (§2.2.2): one canonical form on both sides.
		{"hex case in the rule", "Disallow: /a%3cd.html", "/a%3Cd.html", false},
		{"hex case in the path", "Disallow: /a%3Cd.html", "/a%3cd.html", false},
		{"escaped tilde in the rule", "Disallow: /%7Ejoe/", "/~joe/index.html", false},
		{"escaped tilde in the path", "Disallow: /~joe/", "/%7ejoe/index.html", false},
		{"escaped letters are letters", "Disallow: /foo/bar/%62%61%7A", "/foo/bar/baz", false},
		{"escaped slash is not a slash", "Disallow: /a%2fb.html", "/a/b.html", true},
		{"a slash is not an escaped slash", "Disallow: /a/b.html", "/a%2Fb.html", true},
		{"escaped slash matches itself", "Disallow: /a%2fb.html", "/a%2Fb.html", false},
		{"UTF-8 in the rule", "Disallow: /foo/bar/ツ", "/foo/bar/%E3%83%84", false},
		{"UTF-8 in the path", "Disallow: /foo/bar/%E3%83%84", "/foo/bar/ツ", false},
		{"space in the rule", "Disallow: /a b", "/a%20b", false},

		// Leniency.
		{"a pattern without its slash", "Disallow: private/", "/private/x", false},

		// robots.txt itself.
		{"robots.txt is always allowed", "Disallow: /", "/robots.txt", true},
		{"even when named", "Disallow: /robots.txt", "/robots.txt", true},
		{"but only robots.txt", "Disallow: /", "/robots.txt.bak", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte("User-agent: *\n"+tt.rules+"\n"), "loopkit")
			if got := r.Allowed(tt.path); got != tt.want {
				t.Errorf("rules\n%s\nAllowed(%q) = %v, want %v", tt.rules, tt.path, got, tt.want)
			}
		})
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		in      string
		pattern bool
		want    string
	}{
		{"/plain/path?q=1&r=2", false, "/plain/path?q=1&r=2"},
		{"/%7e%41%2d", false, "/~A-"},
		{"/%2f%3c%3F", false, "/%2F%3C%3F"},
		{"/ü ", false, "/%C3%BC%20"},
		{"/100%", false, "/100%25"},
		{"/%zz", false, "/%25zz"},
		{"/a*b$", false, "/a%2Ab%24"},
		{"/a**b$", true, "/a*b$"},
		{"/a$b", true, "/a%24b"},
		{"/%2a", true, "/%2A"},
		// A "%" too near the end to start an escape is itself escaped.
		{"/a%4", false, "/a%254"},
		{"/a%4", true, "/a%254"},
		// One-byte paths: no slash for the fast path to see first.
		{"*", false, "%2A"},
		{"$", false, "%24"},
		{"%", false, "%25"},
		// Every unreserved character is decoded, every reserved one kept
		// as it is spelled: raw stays raw, escaped stays escaped.
		{"/%5F%2E%2D%7E%30%39%61%7A%41%5A", false, "/_.-~09azAZ"},
		{"/_.-~09azAZ:@!&'()+,;=/?", false, "/_.-~09azAZ:@!&'()+,;=/?"},
		{"/_.-~09azAZ:@!&'()+,;=/?", true, "/_.-~09azAZ:@!&'()+,;=/?"},
		{"/%3A%40%21%26%27%28%29%2B%2C%3B%3D%2F%3F", false, "/%3A%40%21%26%27%28%29%2B%2C%3B%3D%2F%3F"},
	}
	for _, tt := range tests {
		if got := canonical(tt.in, tt.pattern); got != tt.want {
			t.Errorf("canonical(%q, pattern=%v) = %q, want %q", tt.in, tt.pattern, got, tt.want)
		}
	}
}

func TestAllowAllDisallowAll(t *testing.T) {
	for _, path := range []string{"/", "/a", "/a?b"} {
		if !AllowAll().Allowed(path) {
			t.Errorf("AllowAll().Allowed(%q) = false", path)
		}
		if DisallowAll().Allowed(path) {
			t.Errorf("DisallowAll().Allowed(%q) = true", path)
		}
	}
	if !DisallowAll().Allowed("/robots.txt") {
		t.Error("DisallowAll disallows /robots.txt, so it could never be fetched again")
	}
	var zero Rules
	if !zero.Allowed("/a") {
		t.Error("the zero Rules disallow")
	}
}
