package printable

import "testing"

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"text/html", "text/html"},
		{"", ""},
		{"caf\u00e9 \u65e5\u672c", "caf\u00e9 \u65e5\u672c"}, // any script prints
		{"a\x1b[31mred\x1b[0m", `a\x1b[31mred\x1b[0m`},
		{"bell\a", `bell\a`},
		{"line\nforged line\r", `line\nforged line\r`},
		{"tab\there", `tab\there`},
		{"del\x7f", `del\x7f`},
		{"csi\u009b2J", `csi\u009b2J`},         // the 8-bit CSI, as UTF-8
		{"\u202eevil", `\u202eevil`},           // right-to-left override
		{"zero\u200bwidth", `zero\u200bwidth`}, // invisible
		{"not utf-8 \xff\xfe", `not utf-8 \xff\xfe`},
		{"\uFFFD is a real character", "\uFFFD is a real character"},
		{`a\x1b stays`, `a\x1b stays`},
	} {
		got := Escape(c.in)
		if got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
		if again := Escape(got); again != got {
			t.Errorf("Escape is not idempotent on %q: %q", got, again)
		}
	}
}
