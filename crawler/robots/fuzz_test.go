package robots

import (
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary files and paths to Parse and Allowed. They must
// never panic, /robots.txt must stay allowed, and an answer must not
// depend on how the path spells its escapes.
func FuzzParse(f *testing.F) {
	seeds := []struct{ robots, path string }{
		{"User-agent: *\nDisallow: /", "/a"},
		{"User-agent: loopkit\nAllow: /a$\nDisallow: /*.php$\nCrawl-delay: 0.5", "/x.php"},
		{"\xEF\xBB\xBFuser-agent:*\r\ndisallow:/a%3c*%7E$\rallow:/a", "/a%3Cb~"},
		{"User-agent: *\nDisallow: /foo/bar/ツ\nDisallow: *$\nDisallow: ***", "/foo/bar/%E3%83%84"},
		{"Disallow: /\nUser-agent:\nUser-agent: *\n# comment\nSitemap: x\nDisallow:%", "/%zz"},
		{"User-agent: *\nCrawl-delay: 99999999999999999999\nDisallow: /$$", "/$"},
	}
	for _, s := range seeds {
		f.Add(s.robots, s.path)
	}
	f.Fuzz(func(t *testing.T, robots, path string) {
		r := Parse([]byte(robots), "loopkit")
		got := r.Allowed(path)
		r.CrawlDelay()
		_ = r.String()
		if !r.Allowed("/robots.txt") {
			t.Fatal("/robots.txt disallowed")
		}
		// Lower-casing the hex of every escape must not change anything.
		if lower := lowerEscapes(path); r.Allowed(lower) != got {
			t.Fatalf("Allowed(%q) = %v but Allowed(%q) = %v", path, got, lower, !got)
		}
	})
}

func lowerEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteString(strings.ToLower(s[i : i+3]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
