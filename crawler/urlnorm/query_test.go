package urlnorm

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// TestResolveIn: a link's query is sent in the encoding of its page, as
// browsers send it (non-UTF-8 pages once had their queries in UTF-8).
func TestResolveIn(t *testing.T) {
	base := mustParse(t, "http://example.com/dir/page.html")
	tests := []struct {
		name string
		enc  encoding.Encoding
		ref  string
		want string
	}{
		{"windows-1252: é is one byte", charmap.Windows1252, "?q=é", "http://example.com/dir/page.html?q=%E9"},
		{"windows-1252: € is 0x80", charmap.Windows1252, "/s?a=é&b=€", "http://example.com/s?a=%E9&b=%80"},
		{"the path stays UTF-8", charmap.Windows1252, "/é?q=é", "http://example.com/%C3%A9?q=%E9"},
		{"an absolute link too", charmap.Windows1252, "https://other.org/?q=é", "https://other.org/?q=%E9"},
		{"escapes in the source are kept", charmap.Windows1252, "/s?q=%C3%A9", "http://example.com/s?q=%C3%A9"},
		{"a fragment is no query", charmap.Windows1252, "/s#?q=é", "http://example.com/s"},
		{"only the query, not the fragment", charmap.Windows1252, "/s?q=é#é", "http://example.com/s?q=%E9"},
		{"unrepresentable: a character reference", charmap.Windows1252, "/s?q=日", "http://example.com/s?q=%26%2326085%3B"},
		{"invalid UTF-8 is U+FFFD, unrepresentable", charmap.Windows1252, "/s?q=\xff", "http://example.com/s?q=%26%2365533%3B"},
		{"GBK: two bytes", simplifiedchinese.GBK, "/s?q=中", "http://example.com/s?q=%D6%D0"},
		{"Shift_JIS: a second byte that is a backslash", japanese.ShiftJIS, "/s?q=ソ", "http://example.com/s?q=%83%5C"},
		{"ISO-2022-JP: escape sequences around a run", japanese.ISO2022JP, "/s?q=日本&r=x",
			"http://example.com/s?q=%1B$BF%7CK%5C%1B(B&r=x"},
		{"ISO-2022-JP: back to ASCII before a reference", japanese.ISO2022JP, "/s?q=日é",
			"http://example.com/s?q=%1B$BF%7C%1B(B%26%23233%3B"},
		{"ISO-2022-JP: a byte that is \"#\" is escaped", japanese.ISO2022JP, "/s?q=Ａ&r=x",
			"http://example.com/s?q=%1B$B%23A%1B(B&r=x"},
		{"ISO-2022-JP: a byte that is an apostrophe is escaped", japanese.ISO2022JP, "/s?q=А&r=x",
			"http://example.com/s?q=%1B$B%27!%1B(B&r=x"},
		{"Shift_JIS: two runs, each encoded alone", japanese.ShiftJIS, "/s?q=ソ&r=ソ", "http://example.com/s?q=%83%5C&r=%83%5C"},
		{"ISO-2022-JP: two runs, each switched in and out", japanese.ISO2022JP, "/s?q=日&r=本",
			"http://example.com/s?q=%1B$BF%7C%1B(B&r=%1B$BK%5C%1B(B"},
		// More than the encoder's 64-byte buffer in one run.
		{"a long run goes through in pieces", charmap.Windows1252, "/s?q=" + strings.Repeat("é", 70),
			"http://example.com/s?q=" + strings.Repeat("%E9", 70)},
		{"nil is UTF-8", nil, "/é?q=é", "http://example.com/%C3%A9?q=%C3%A9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := ResolveIn(base, tt.ref, tt.enc)
			if err != nil {
				t.Fatalf("ResolveIn(%q): %v", tt.ref, err)
			}
			if got := u.String(); got != tt.want {
				t.Errorf("ResolveIn(%q)\n got %q\nwant %q", tt.ref, got, tt.want)
			}
		})
	}
}
